// RFC 4180 CSV: CRLF line ends, a header row, and a field quoted (quotes
// doubled) when it holds a comma, a quote or a line break.
//
// Formula injection: a spreadsheet runs a cell that starts with `=`, `+`, `-`
// or `@` (and some also after a TAB or CR), so a customer's email or a claim's
// description could carry a formula into the business's spreadsheet. Every
// TEXT cell starting with one of those gets a leading `'` (OWASP's advice);
// the spreadsheet shows it as text. NUMBER cells are left alone when they are
// a plain decimal ("-1.50" is a debit, not a formula, and must stay a number
// for sums); anything else found in a number column is treated as text.
const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;

export type CsvValue = string | number | bigint | null | undefined;
/** How a column's cells are written: `text` is neutralized, `number` is written as is when it is a plain decimal. */
export type CsvKind = "text" | "number";

/** Quotes a field when RFC 4180 requires it; no formula escaping (see csvCell). */
export function csvField(value: CsvValue): string {
  const text = value === null || value === undefined ? "" : String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A text cell a spreadsheet will not run as a formula, quoted as needed. */
export function csvText(value: CsvValue): string {
  const text = value === null || value === undefined ? "" : String(value);
  return csvField(FORMULA_START.test(text) ? `'${text}` : text);
}

/** One cell of a column of the given kind. */
export function csvCell(value: CsvValue, kind: CsvKind = "text"): string {
  if (kind === "number" && (typeof value === "bigint" || (typeof value === "number" && Number.isFinite(value)))) {
    return String(value);
  }
  if (kind === "number" && typeof value === "string" && PLAIN_NUMBER.test(value)) return value;
  return csvText(value);
}

/** One record, CRLF-terminated; `kinds[i]` is the kind of cell i (text when absent). */
export function csvLine(values: readonly CsvValue[], kinds: readonly CsvKind[] = []): string {
  return values.map((v, i) => csvCell(v, kinds[i] ?? "text")).join(",") + "\r\n";
}

/** A whole file: the header row, then one record per row; `numbers` lists the number columns (all others are text). */
export function toCsv<T>(
  columns: readonly (keyof T & string)[],
  rows: readonly T[],
  numbers: readonly (keyof T & string)[] = [],
): string {
  const kinds = columns.map((c): CsvKind => (numbers.includes(c) ? "number" : "text"));
  return (
    csvLine(columns) +
    rows
      .map((row) =>
        csvLine(
          columns.map((c) => row[c] as CsvValue),
          kinds,
        ),
      )
      .join("")
  );
}

/** Hands a text file to the browser as a download. */
export function downloadText(fileName: string, text: string, type = "text/csv;charset=utf-8") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked after the click has been handled, not before the download starts.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
