import { constants, crc32, deflateRawSync } from 'node:zlib'
import { strToU8, zipSync } from 'fflate'

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

type Cell = string | { formula: string; value: string }

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

/** The XML of a worksheet around `sheetData` (its rows). */
export const sheetXml = (sheetData: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>${sheetData}</sheetData></worksheet>`

/**
 * The parts of a minimal XLSX workbook (one sheet; with `sharedStrings`, text cells are indexes
 * into a shared-string table, as spreadsheet applications save them; else inline strings).
 * `{ formula, value }` cells carry a formula with its cached value.
 */
export function workbookParts(rows: Cell[][], options: { sharedStrings?: boolean } = {}) {
  const column = (i: number) => String.fromCharCode(65 + i)
  const strings: string[] = []
  const sheetRows = rows
    .map((cells, r) => {
      const xml = cells
        .map((cell, c) => {
          const ref = `${column(c)}${r + 1}`
          if (typeof cell !== 'string') {
            return `<c r="${ref}" t="str"><f>${escape(cell.formula)}</f><v>${escape(cell.value)}</v></c>`
          }
          if (options.sharedStrings) {
            strings.push(cell)
            return `<c r="${ref}" t="s"><v>${strings.length - 1}</v></c>`
          }
          return `<c r="${ref}" t="inlineStr"><is><t>${escape(cell)}</t></is></c>`
        })
        .join('')
      return `<row r="${r + 1}">${xml}</row>`
    })
    .join('')
  const parts: Record<string, string> = {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Users" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    'xl/worksheets/sheet1.xml': sheetXml(sheetRows),
  }
  if (options.sharedStrings) {
    parts['xl/sharedStrings.xml'] =
      `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN}" count="${strings.length}" uniqueCount="${strings.length}">` +
      strings.map((text) => `<si><t xml:space="preserve">${escape(text)}</t></si>`).join('') +
      '</sst>'
  }
  return parts
}

/** A minimal XLSX workbook (see workbookParts), zipped by fflate. */
export function xlsx(rows: Cell[][], options: { sharedStrings?: boolean } = {}): Buffer {
  const parts = workbookParts(rows, options)
  return Buffer.from(
    zipSync(Object.fromEntries(Object.entries(parts).map(([name, xml]) => [name, strToU8(xml)])))
  )
}

/** One entry of zipOf: deflated bytes and the inflated size the archive declares. */
export type ZipPart = { name: string; deflated: Buffer; size: number; crc: number }

export function part(name: string, text: string | Buffer): ZipPart {
  const data = Buffer.isBuffer(text) ? text : Buffer.from(text)
  return { name, deflated: deflateRawSync(data), size: data.length, crc: crc32(data) }
}

/**
 * A deflated entry of `head`, then `unit` repeated `times`, then `tail`, built without ever
 * holding the inflated text: `unit` (up to a few MB) is deflated once with a full flush, which
 * makes its blocks independent of what precedes them, so the same bytes can be repeated. A unit
 * of repeated text deflates about 1000 to 1: a zip bomb. The CRC is left at 0 (readers that
 * check it only do so at the end, after inflating everything).
 */
export function repeatedPart(
  name: string,
  head: string,
  unit: string,
  times: number,
  tail: string
) {
  const flushed = (text: string) =>
    deflateRawSync(Buffer.from(text), { finishFlush: constants.Z_FULL_FLUSH })
  const body = flushed(unit)
  const deflated = Buffer.concat([
    flushed(head),
    ...Array.from({ length: times }, () => body),
    deflateRawSync(Buffer.from(tail)),
  ])
  const size = Buffer.byteLength(head) + Buffer.byteLength(unit) * times + Buffer.byteLength(tail)
  return { name, deflated, size, crc: 0 }
}

/**
 * A ZIP of deflated entries (method 8) whose central directory declares `declaredSize` (default:
 * the real size): a file whose declared sizes lie is built the same way.
 */
export function zipOf(parts: (ZipPart & { declaredSize?: number })[]): Buffer {
  const locals: Buffer[] = []
  const central: Buffer[] = []
  let offset = 0
  for (const entry of parts) {
    const name = Buffer.from(entry.name)
    const size = entry.declaredSize ?? entry.size
    const header = Buffer.alloc(30)
    header.writeUInt32LE(0x04034b50, 0)
    header.writeUInt16LE(20, 4) // version needed
    header.writeUInt16LE(0x0800, 6) // UTF-8 names
    header.writeUInt16LE(8, 8) // deflate
    header.writeUInt32LE(entry.crc, 14)
    header.writeUInt32LE(entry.deflated.length, 18)
    header.writeUInt32LE(size, 22)
    header.writeUInt16LE(name.length, 26)
    locals.push(header, name, entry.deflated)
    const record = Buffer.alloc(46)
    record.writeUInt32LE(0x02014b50, 0)
    record.writeUInt16LE(20, 4) // made by
    record.writeUInt16LE(20, 6)
    record.writeUInt16LE(0x0800, 8)
    record.writeUInt16LE(8, 10)
    record.writeUInt32LE(entry.crc, 16)
    record.writeUInt32LE(entry.deflated.length, 20)
    record.writeUInt32LE(size, 24)
    record.writeUInt16LE(name.length, 28)
    record.writeUInt32LE(offset, 42)
    central.push(record, name)
    offset += header.length + name.length + entry.deflated.length
  }
  const directory = Buffer.concat(central)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(parts.length, 8)
  end.writeUInt16LE(parts.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

/** A workbook of `parts` (workbookParts) zipped by zipOf, with some entries replaced. */
export function workbookWith(
  parts: Record<string, string>,
  replaced: (ZipPart & { declaredSize?: number })[]
) {
  const names = new Set(replaced.map((entry) => entry.name))
  return zipOf([
    ...Object.entries(parts)
      .filter(([name]) => !names.has(name))
      .map(([name, xml]) => part(name, xml)),
    ...replaced,
  ])
}
