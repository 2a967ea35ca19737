import { CRM_FIXTURES, createFakeCrm } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { TYPEFORM_INSIGHTS_FORBIDDEN, typeformTools } from './typeform.tools.js';

const tf = useFamily(createFakeCrm, { typeform: '/typeform' }, typeformTools);
const key = { apiKey: 'tfp_1', formId: 'form1' };

describe('typeform', () => {
  it('typeform_responses pages by 25 by default and answers total_items, page_count and items', async () => {
    const r = await tf.run('typeform_responses', key);
    const req = tf.only('GET', '/typeform/forms/form1/responses');
    expect(req.headers.authorization).toBe('Bearer tfp_1');
    expect(req.query).toEqual({ page_size: '25' });
    expect(r).toEqual({ success: true, output: CRM_FIXTURES.typeformResponses });
  });

  it('typeform_responses sends since, until and completed, but not completed=all', async () => {
    await tf.run('typeform_responses', { ...key, pageSize: 5, since: '2025-05-01T00:00:00Z', until: '2025-06-01T00:00:00Z', completed: 'true' });
    await tf.run('typeform_responses', { ...key, completed: 'all' });
    const [first, second] = tf.fake.received('GET', '/typeform/forms/form1/responses');
    expect(first?.query).toEqual({ page_size: '5', since: '2025-05-01T00:00:00Z', until: '2025-06-01T00:00:00Z', completed: 'true' });
    expect(second?.query).toEqual({ page_size: '25' });
  });

  it('typeform_responses fails with the §8 message', async () => {
    tf.fake.once('GET', '/typeform/forms/:form/responses', { status: 404, json: { code: 'FORM_NOT_FOUND', description: 'Non existing form with uid form9' } });
    expect(await tf.run('typeform_responses', { ...key, formId: 'form9' })).toEqual({ success: false, output: {}, error: 'Typeform API error (404): Non existing form with uid form9' });
  });

  it('typeform_files downloads the file (inline when asked) and answers its url, type, size and content', async () => {
    const r = await tf.run('typeform_files', { ...key, responseId: 'r1', fieldId: 'f9', filename: 'cv 2025.pdf', inline: true });
    const req = tf.only('GET', '/typeform/forms/form1/responses/r1/fields/f9/files/:file');
    expect(req.path).toBe('/typeform/forms/form1/responses/r1/fields/f9/files/cv%202025.pdf');
    expect(req.query).toEqual({ inline: 'true' });
    expect(req.headers.authorization).toBe('Bearer tfp_1');
    expect(r).toEqual({
      success: true,
      output: {
        fileUrl: `${tf.fake.url}/typeform/forms/form1/responses/r1/fields/f9/files/cv%202025.pdf?inline=true`,
        filename: 'cv 2025.pdf',
        contentType: 'application/pdf',
        size: CRM_FIXTURES.typeformFile.length,
        content: Buffer.from(CRM_FIXTURES.typeformFile).toString('base64'),
      },
    });
  });

  it('typeform_files fails with the Typeform message', async () => {
    tf.fake.once('GET', '/typeform/forms/:form/responses/:response/fields/:field/files/:file', { status: 404, json: { code: 'NOT_FOUND', description: 'File not found' } });
    expect(await tf.run('typeform_files', { ...key, responseId: 'r1', fieldId: 'f1', filename: 'x.pdf' })).toMatchObject({ success: false, error: 'Typeform API error (404): File not found' });
  });

  it('typeform_insights answers the summary; 403 gives the multi-point explanation', async () => {
    expect(await tf.run('typeform_insights', key)).toEqual({ success: true, output: CRM_FIXTURES.typeformInsights });
    expect(tf.only('GET', '/typeform/insights/form1/summary').headers.authorization).toBe('Bearer tfp_1');
    tf.fake.once('GET', '/typeform/insights/:form/summary', { status: 403, json: { code: 'FORBIDDEN', description: 'Forbidden' } });
    const r = await tf.run('typeform_insights', key);
    expect(r).toEqual({ success: false, output: {}, error: TYPEFORM_INSIGHTS_FORBIDDEN });
    expect(TYPEFORM_INSIGHTS_FORBIDDEN).toContain('read:insights');
    tf.fake.once('GET', '/typeform/insights/:form/summary', { status: 401, json: { code: 'AUTHENTICATION_FAILED', description: 'Authentication credentials not found on the Request Headers' } });
    expect(await tf.run('typeform_insights', key)).toMatchObject({ error: 'Typeform API error (401): Authentication credentials not found on the Request Headers' });
  });
});
