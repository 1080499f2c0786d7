import { describe, expect, it } from "vitest";
import { csvCell, csvField, csvLine, csvText, toCsv } from "./csv";

describe("csv", () => {
  it("leaves plain fields alone and quotes commas, quotes and line breaks", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("-1.50")).toBe("-1.50");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\rlf")).toBe('"cr\rlf"');
    expect(csvField(null)).toBe("");
  });

  it("prefixes a text cell a spreadsheet would run as a formula with '", () => {
    expect(csvText('=HYPERLINK("http://evil")')).toBe('"\'=HYPERLINK(""http://evil"")"');
    expect(csvText("+1")).toBe("'+1");
    expect(csvText("-2+3")).toBe("'-2+3");
    expect(csvText("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvText("\t=1")).toBe("'\t=1");
    expect(csvText("\r=1")).toBe('"\'\r=1"');
    expect(csvText("=1,2")).toBe('"\'=1,2"');
    // Only the first character matters; a formula sign further in is plain text.
    expect(csvText("a=b")).toBe("a=b");
    expect(csvText("ada@example.test")).toBe("ada@example.test");
    expect(csvText(undefined)).toBe("");
  });

  it("writes number cells as numbers, negatives included, and anything else in them as text", () => {
    expect(csvCell("-1.50", "number")).toBe("-1.50");
    expect(csvCell("150.00", "number")).toBe("150.00");
    expect(csvCell(-3, "number")).toBe("-3");
    expect(csvCell(12.5, "number")).toBe("12.5");
    expect(csvCell(-15050n, "number")).toBe("-15050");
    expect(csvCell(null, "number")).toBe("");
    expect(csvCell("-1+1", "number")).toBe("'-1+1");
    expect(csvCell("=1", "number")).toBe("'=1");
    // The same value in a text column is neutralized.
    expect(csvCell("-1.50")).toBe("'-1.50");
  });

  it("writes a CRLF-terminated line of cells by kind", () => {
    expect(csvLine(["=x", "-1.50", "a,b"], ["text", "number"])).toBe('\'=x,-1.50,"a,b"\r\n');
  });

  it("writes a header row and CRLF-terminated records in column order, numbers as numbers, text neutralized", () => {
    const rows = [
      { id: "t1", amount: "150.00", description: "Premium, March" },
      { id: "t2", amount: "-1.50", description: 'Fee "card"' },
      { id: "t3", amount: "-2.00", description: "=cmd|' /C calc'!A0" },
    ];
    expect(toCsv(["id", "amount", "description"], rows, ["amount"])).toBe(
      'id,amount,description\r\nt1,150.00,"Premium, March"\r\nt2,-1.50,"Fee ""card"""\r\nt3,-2.00,\'=cmd|\' /C calc\'!A0\r\n',
    );
  });

  it("treats every column as text unless it is listed as a number", () => {
    expect(toCsv(["amount"], [{ amount: "-1.50" }])).toBe("amount\r\n'-1.50\r\n");
  });
});
