import { once } from 'node:events'
import { constants, crc32, createDeflateRaw } from 'node:zlib'
import { Zip, type AsyncFlateStreamHandler, type ZipInputFile } from 'fflate'

/**
 * A streaming writer of one-sheet XLSX workbooks (SpreadsheetML, ECMA-376 part 1), for the list
 * exports (app/services/admin/list_export.ts). The ZIP container is fflate's streaming `Zip`;
 * the deflate is Node's zlib (native, run on the thread pool: about 4x fflate's pure-JS deflate, and the event
 * loop stays free). The sheet is deflated as its rows come, each batch's compressed bytes
 * handed on before the next batch is read, so a 100k-row file is never held in memory. A
 * general workbook library (exceljs: 194 packages, 53 MB installed) was the alternative.
 *
 * Cells: text is an inline string (`t="inlineStr"`: nothing a spreadsheet evaluates; no shared
 * string table to keep in memory), a finite number a number, a boolean a boolean. The header row
 * is bold and frozen.
 */

export type XlsxCell = string | number | boolean

/** Excel refuses (as a damaged file) a cell holding more characters than this. */
export const MAX_CELL_CHARS = 32_767

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships'
const TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml'

/** The parts around the sheet: they never change. */
const FIXED_PARTS: [string, string][] = [
  [
    '[Content_Types].xml',
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
      `<Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/xl/workbook.xml" ContentType="${TYPE}.sheet.main+xml"/>` +
      `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${TYPE}.worksheet+xml"/>` +
      `<Override PartName="/xl/styles.xml" ContentType="${TYPE}.styles+xml"/></Types>`,
  ],
  [
    '_rels/.rels',
    `${XML}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" ` +
      `Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  ],
  [
    'xl/_rels/workbook.xml.rels',
    `${XML}<Relationships xmlns="${PKG_REL}">` +
      `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
  ],
  [
    // Style 0: the default; style 1: bold (the header row).
    'xl/styles.xml',
    `${XML}<styleSheet xmlns="${MAIN}">` +
      `<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font>` +
      `<font><b/><sz val="11"/><name val="Calibri"/></font></fonts>` +
      `<fills count="2"><fill><patternFill patternType="none"/></fill>` +
      `<fill><patternFill patternType="gray125"/></fill></fills>` +
      `<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
      `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
      `<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>` +
      `<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>` +
      `</styleSheet>`,
  ],
]

/**
 * Text as SpreadsheetML keeps it: XML-escaped; control characters but tab and line breaks (XML
 * 1.0 cannot carry most), U+FFFE/U+FFFF and lone surrogates written as `_xHHHH_`, and a literal
 * `_xHHHH_` protected by escaping its underscore, as the format defines (ST_Xstring).
 */
const NEEDS_ESCAPE = /[&<>_\p{Cc}\p{Cs}\uFFFE\uFFFF]/u

export function xmlText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text
  return text
    .replace(/_(?=x[0-9A-Fa-f]{4}_)/g, '_x005F_')
    .replace(/[\p{Cc}\p{Cs}\uFFFE\uFFFF]/gu, (char) =>
      char === '\t' || char === '\n' || char === '\r'
        ? char
        : `_x${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`
    )
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
}

/** A (0-based) column's letters: A..Z, AA.. */
function columnName(index: number): string {
  let name = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name
  }
  return name
}

function cellXml(value: XlsxCell, ref: string, style: string): string {
  if (typeof value === 'number' && Number.isFinite(value))
    return `<c r="${ref}"${style}><v>${value}</v></c>`
  if (typeof value === 'boolean') return `<c r="${ref}"${style} t="b"><v>${value ? 1 : 0}</v></c>`
  const text = String(value).slice(0, MAX_CELL_CHARS)
  // xml:space keeps leading and trailing blanks, which the CSV keeps too.
  const space = /^\s|\s$/.test(text) ? ' xml:space="preserve"' : ''
  return `<c r="${ref}"${style} t="inlineStr"><is><t${space}>${xmlText(text)}</t></is></c>`
}

function rowXml(cells: XlsxCell[], number: number, style = ''): string {
  const xml = cells.map((cell, i) => cellXml(cell, `${columnName(i)}${number}`, style)).join('')
  return `<row r="${number}">${xml}</row>`
}

/** Sheet names: at most 31 characters, none of : \ / ? * [ ] (an attribute: quotes escaped). */
const sheetName = (name: string) =>
  xmlText(name.replace(/[:\\/?*[\]]/g, '_').slice(0, 31)).replace(/"/g, '&quot;')

/**
 * One deflated entry of the ZIP, fed by `write`: fflate's Zip writes the headers and the data
 * descriptor (crc and size are final when the last chunk is handed over), zlib compresses.
 */
class DeflatedEntry implements ZipInputFile {
  compression = 8
  size = 0
  crc = 0
  ondata?: AsyncFlateStreamHandler
  #deflate = createDeflateRaw({ level: 6 })
  #out: Buffer[] = []

  constructor(public filename: string) {
    this.#deflate.on('data', (chunk: Buffer) => this.#out.push(chunk))
  }

  async write(text: string, final = false) {
    const raw = Buffer.from(text)
    this.crc = crc32(raw, this.crc)
    this.size += raw.length
    this.#deflate.write(raw)
    if (final) {
      this.#deflate.end()
      await once(this.#deflate, 'end')
    } else {
      await new Promise<void>((resolve) => this.#deflate.flush(constants.Z_SYNC_FLUSH, resolve))
    }
    this.ondata!(null, Buffer.concat(this.#out.splice(0)), final)
  }
}

/**
 * The workbook's bytes, as they are made: a header row, then each batch of `batches`; each
 * batch's compressed bytes are yielded before the next batch is asked for, so memory holds one
 * batch and its compressed bytes.
 */
export async function* xlsxChunks(
  name: string,
  header: string[],
  batches: AsyncIterable<XlsxCell[][]>
): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = []
  let failure: Error | null = null
  const zip = new Zip((error, chunk) => {
    if (error) failure = error
    else out.push(chunk)
  })
  function* drain() {
    if (failure) throw failure
    yield* out.splice(0)
  }
  const parts: [string, string][] = [
    ...FIXED_PARTS,
    [
      'xl/workbook.xml',
      `${XML}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>` +
        `<sheet name="${sheetName(name)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
  ]
  for (const [path, xml] of parts) {
    const part = new DeflatedEntry(path)
    zip.add(part)
    await part.write(xml, true)
  }
  const sheet = new DeflatedEntry('xl/worksheets/sheet1.xml')
  zip.add(sheet)
  await sheet.write(
    `${XML}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetViews>` +
      `<sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" ` +
      `state="frozen"/></sheetView></sheetViews><sheetData>${rowXml(header, 1, ' s="1"')}`
  )
  yield* drain()
  let number = 1
  for await (const rows of batches) {
    if (rows.length) await sheet.write(rows.map((cells) => rowXml(cells, ++number)).join(''))
    yield* drain()
  }
  await sheet.write('</sheetData></worksheet>', true)
  zip.end()
  yield* drain()
}
