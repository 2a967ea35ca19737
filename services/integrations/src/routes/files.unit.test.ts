import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { createLogger } from '@weft/platform';
import { createFakeServer, type FakeServer } from '@weft/testkit';
import type { AddressPolicy } from '../net/addressPolicy.js';
import { createRouter } from './router.js';
import { FILE_MAX_BYTES, fileRoutes, parseBytes, PDF_MAX_BYTES } from './files.routes.js';

const ALLOW_FAKES: AddressPolicy = { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] };
const routes = createRouter(fileRoutes(ALLOW_FAKES), createLogger('integrations', 'silent'));
const parse = (body: unknown) => routes.handle({ method: 'POST', path: '/files/parse', query: {}, body, context: { workspaceId: 'ws1', workflowId: 'wf1' }, envVars: {} });
const dataLink = (mime: string, bytes: Uint8Array) => `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;

/** A zip of stored (uncompressed) entries: enough for a .docx that Word's readers accept. */
function zip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text, 'utf8');
    const file = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(file.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(file.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, file, data);
    centrals.push(central, file);
    offset += local.length + file.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

function docx(paragraphs: string[]): Buffer {
  const body = paragraphs.map((p) => `<w:p><w:r><w:t>${p}</w:t></w:r></w:p>`).join('');
  return zip({
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  });
}

/** A PDF of one page per text, each written in Helvetica, with a correct cross-reference table. */
function pdf(pages: string[]): Buffer {
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 4 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  pages.forEach((text, i) => {
    const stream = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
    objects[4 + i * 2] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`;
    objects[5 + i * 2] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  });
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n${offsets.slice(1).map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

describe('POST /api/files/parse: binary formats', () => {
  it('reads the text of every page of a PDF and counts its pages', async () => {
    const res = await parse({ filePath: dataLink('application/pdf', pdf(['Quarterly report', 'Revenue grew'])) });
    expect(res.status).toBe(200);
    const file = (res.body as { output: { files: Array<{ fileType: string; content: string; metadata: { pageCount: number } }> } }).output.files[0];
    expect(file?.fileType).toBe('pdf');
    expect(file?.metadata.pageCount).toBe(2);
    expect(file?.content).toContain('Quarterly report');
    expect(file?.content).toContain('Revenue grew');
  });

  it("reads a Word document's paragraphs", async () => {
    const res = await parse({ filePath: dataLink('application/vnd.openxmlformats-officedocument.wordprocessingml.document', docx(['Dear team,', 'The launch is on Monday.'])) });
    expect(res).toMatchObject({ status: 200, body: { output: { files: [{ fileType: 'docx', content: 'Dear team,\n\nThe launch is on Monday.' }] } } });
  });

  it("reads every sheet of a workbook, rows as values (a formula's result)", async () => {
    const wb = new ExcelJS.Workbook();
    const people = wb.addWorksheet('People');
    people.addRow(['name', 'age']);
    people.addRow(['Ada', 36]);
    people.addRow(['Lin', { formula: 'B2+1', result: 37 }]);
    wb.addWorksheet('Notes').addRow(['checked']);
    const bytes = new Uint8Array(await wb.xlsx.writeBuffer());
    const res = await parse({ filePath: dataLink('application/octet-stream', bytes), fileType: 'xlsx' });
    expect(res).toMatchObject({
      status: 200,
      body: {
        output: {
          files: [{ fileType: 'xlsx', content: 'Sheet: People\nname,age\nAda,36\nLin,37\n\nSheet: Notes\nchecked', metadata: { sheets: [{ name: 'People', rowCount: 3 }, { name: 'Notes', rowCount: 1 }] } }],
        },
      },
    });
  });

  it('answers 422 naming the file and its type when the bytes are not that format', async () => {
    const broken = Buffer.from('not a zip at all');
    for (const fileType of ['docx', 'xlsx', 'pdf']) {
      const res = await parse({ filePath: dataLink('application/octet-stream', broken), fileType });
      expect(res.status).toBe(422);
      expect((res.body as { error: string }).error).toMatch(new RegExp(`^Failed to parse file as ${fileType}: `));
    }
  });
});

describe('file size limits', () => {
  let site: FakeServer;
  beforeAll(async () => {
    site = await createFakeServer();
  });
  afterAll(() => site.close());

  it('refuses a file over 100 MB and a PDF over 50 MB with 413, before parsing', async () => {
    await expect(parseBytes(new Uint8Array(FILE_MAX_BYTES + 1), 'txt', 'big.txt')).rejects.toMatchObject({ status: 413, message: 'File big.txt exceeds the maximum size of 100 MB' });
    await expect(parseBytes(new Uint8Array(PDF_MAX_BYTES + 1), 'pdf', 'big.pdf')).rejects.toMatchObject({ status: 413, message: 'PDF big.pdf exceeds the maximum size of 50 MB' });
  });

  it('stops a download that passes 100 MB and answers 413', async () => {
    site.on('GET', '/huge.txt', () => ({ text: 'x'.repeat(FILE_MAX_BYTES + 2) }));
    expect(await parse({ filePath: `${site.url}/huge.txt` })).toEqual({ status: 413, body: { success: false, error: 'File exceeds the maximum size of 100 MB' } });
  });
});
