import { describe, expect, it } from "vitest";
import { csvField, toCsv } from "./csv";

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

  it("writes a header row and CRLF-terminated records in column order", () => {
    const rows = [
      { id: "t1", amount: "150.00", description: "Premium, March" },
      { id: "t2", amount: "-1.50", description: 'Fee "card"' },
    ];
    expect(toCsv(["id", "amount", "description"], rows)).toBe(
      'id,amount,description\r\nt1,150.00,"Premium, March"\r\nt2,-1.50,"Fee ""card"""\r\n',
    );
  });
});
