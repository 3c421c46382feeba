/** How the commands print: times, aligned tables, and the one JSON document of `--json`. */

export type Out = (line: string) => void;

/** `2026-11-23 20:15` (UTC), or `-` for never. */
export const formatTime = (date: Date | null | undefined) =>
  date ? date.toISOString().replace('T', ' ').slice(0, 16) : '-';

/**
 * Columns padded to their widest cell (cut at `maxWidth`); the last column is printed whole, so a
 * long error message or address stays readable.
 */
export function printTable(rows: string[][], out: Out, maxWidth = 40): void {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => Math.min((row[column] ?? '').length, maxWidth)))) ?? [];
  for (const row of rows) {
    out(
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.slice(0, maxWidth).padEnd(widths[column] ?? 0)))
        .join('  ')
        .trimEnd(),
    );
  }
}

/** `--json`: one document on stdout and nothing else there (notices go to stderr). */
export function printJson(out: Out, document: unknown): void {
  out(JSON.stringify(document, null, 2));
}
