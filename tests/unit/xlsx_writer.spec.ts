import { test } from '@japa/runner'
import { readSheet } from 'read-excel-file/node'
import { MAX_CELL_CHARS, xlsxChunks, type XlsxCell } from '#core/xlsx_writer'

async function workbook(header: string[], ...batches: XlsxCell[][][]) {
  async function* rows() {
    yield* batches
  }
  const chunks: Uint8Array[] = []
  for await (const chunk of xlsxChunks('a:sheet"name', header, rows())) chunks.push(chunk)
  return readSheet(Buffer.concat(chunks), { trim: false })
}

test.group('XLSX writer', () => {
  test('text survives as written: XML specials, controls, _xHHHH_, astral, blanks', async ({
    assert,
  }) => {
    const texts = [
      '<b>&amp;</b> "q" \'a\'',
      'nul\u0000bell\u0007esc\u001b del\u007f',
      'tab\there\r\nnext line',
      'x_x0041_y and _x005F_',
      '😀 漢字 ＝1',
      '  leading and trailing  ',
      'lone \uD800 surrogate',
    ]
    const sheet = await workbook(
      ['text'],
      texts.map((text) => [text])
    )
    const read = sheet.slice(1).map((row) => row[0])
    assert.deepEqual(read.slice(0, 6), texts.slice(0, 6))
    // A lone surrogate cannot be UTF-8: it comes back as itself or U+FFFD, never breaking the file.
    assert.match(String(read[6]), /^lone (\uD800|\uFFFD) surrogate$/)
  })

  test('columns past Z, typed numbers and booleans, batches in order, long cells cut', async ({
    assert,
  }) => {
    const header = Array.from({ length: 30 }, (_, i) => `c${i}`)
    const row = (n: number) =>
      header.map((_, i): XlsxCell => (i === 0 ? n : i === 1 ? n % 2 === 0 : `r${n}c${i}`))
    const sheet = await workbook(
      header,
      [row(1), row(2)],
      [],
      [row(3), ['x'.repeat(MAX_CELL_CHARS + 10)]]
    )
    assert.deepEqual(sheet[0], header)
    assert.deepEqual(sheet[1], row(1))
    assert.deepEqual(sheet[3][29], 'r3c29')
    assert.deepEqual(
      sheet.slice(1, 4).map((cells) => cells[0]),
      [1, 2, 3]
    )
    assert.lengthOf(String(sheet[4][0]), MAX_CELL_CHARS)
  })
})
