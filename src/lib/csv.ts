// RFC 4180 CSV: CRLF line ends, a header row, and a field quoted (quotes
// doubled) when it holds a comma, a quote or a line break.
const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? "" : String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv<T>(columns: readonly (keyof T & string)[], rows: readonly T[]): string {
  const line = (cells: unknown[]) => cells.map((c) => csvField(c as string | number | null | undefined)).join(",");
  return [line([...columns]), ...rows.map((row) => line(columns.map((c) => row[c])))].join("\r\n") + "\r\n";
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
