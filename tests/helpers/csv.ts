/** Reading the CSV exports back (admin_lists, admin_exports_xlsx, access_review specs). */

/** RFC 4180 rows of an export (the BOM checked and dropped). */
export function parseCsv(text: string): string[][] {
  if (!text.startsWith('\uFEFF')) throw new Error('no BOM')
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 1; i < text.length; i++) {
    const char = text[i]
    if (quoted) {
      if (char !== '"') cell += char
      else if (text[i + 1] === '"') {
        cell += '"'
        i++
      } else quoted = false
    } else if (char === '"') quoted = true
    else if (char === ',') {
      row.push(cell)
      cell = ''
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell)
      rows.push(row)
      row = []
      cell = ''
      i++
    } else cell += char
  }
  if (cell !== '' || row.length) throw new Error('the last line has no CRLF')
  return rows
}

/** The rows of a CSV as objects keyed by its header. */
export function records(text: string) {
  const [header, ...rows] = parseCsv(text)
  return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]])))
}
