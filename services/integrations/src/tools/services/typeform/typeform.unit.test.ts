import { CRM_FIXTURES, createFakeCrm } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { TYPEFORM_INSIGHTS_FORBIDDEN, typeformTools } from './typeform.tools.js';

const tf = useFamily(createFakeCrm, { typeform: '/typeform' }, typeformTools);
const key = { apiKey: 'tfp_1', formId: 'form1' };

describe('typeform', () => {
  it('typeform_responses pages by 25 by default and answers total_items, page_count and items', async () => {
    const r = await tf.run('typeform_responses', key);
    tf.expectRequest('typeform_responses', 'GET', '/typeform/forms/form1/responses', { headers: { authorization: 'Bearer tfp_1' }, query: { page_size: '25' } });
    expect(r).toEqual({ success: true, output: CRM_FIXTURES.typeformResponses });
  });

  it('typeform_responses sends since, until and completed, but not completed=all', async () => {
    await tf.run('typeform_responses', { ...key, pageSize: 5, since: '2025-05-01T00:00:00Z', until: '2025-06-01T00:00:00Z', completed: 'true' });
    tf.expectRequest('typeform_responses', 'GET', '/typeform/forms/form1/responses', { query: { page_size: '5', since: '2025-05-01T00:00:00Z', until: '2025-06-01T00:00:00Z', completed: 'true' } });
    await tf.run('typeform_responses', { ...key, completed: 'all' });
    tf.expectRequest('typeform_responses', 'GET', '/typeform/forms/form1/responses', { query: { page_size: '25' } });
  });

  it('typeform_responses fails with the §8 message', async () => {
    tf.fake.once('GET', '/typeform/forms/:form/responses', { status: 404, json: { code: 'FORM_NOT_FOUND', description: 'Non existing form with uid form9' } });
    await tf.expectError('typeform_responses', { ...key, formId: 'form9' }, 'Typeform API error (404): Non existing form with uid form9');
  });

  it('typeform_files downloads the file (inline when asked) and answers its url, type, size and content', async () => {
    const r = await tf.run('typeform_files', { ...key, responseId: 'r1', fieldId: 'f9', filename: 'cv 2025.pdf', inline: true });
    tf.expectRequest('typeform_files', 'GET', '/typeform/forms/form1/responses/r1/fields/f9/files/cv%202025.pdf', { headers: { authorization: 'Bearer tfp_1' }, query: { inline: 'true' } });
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
    await tf.expectError('typeform_files', { ...key, responseId: 'r1', fieldId: 'f1', filename: 'x.pdf' }, 'Typeform API error (404): File not found');
  });

  it('typeform_insights answers the summary; 403 gives the multi-point explanation', async () => {
    expect(await tf.run('typeform_insights', key)).toEqual({ success: true, output: CRM_FIXTURES.typeformInsights });
    tf.expectRequest('typeform_insights', 'GET', '/typeform/insights/form1/summary', { headers: { authorization: 'Bearer tfp_1' } });
    tf.fake.once('GET', '/typeform/insights/:form/summary', { status: 403, json: { code: 'FORBIDDEN', description: 'Forbidden' } });
    await tf.expectError('typeform_insights', key, TYPEFORM_INSIGHTS_FORBIDDEN);
    expect(TYPEFORM_INSIGHTS_FORBIDDEN).toContain('read:insights');
    tf.fake.once('GET', '/typeform/insights/:form/summary', { status: 401, json: { code: 'AUTHENTICATION_FAILED', description: 'Authentication credentials not found on the Request Headers' } });
    await tf.expectError('typeform_insights', key, 'Typeform API error (401): Authentication credentials not found on the Request Headers');
  });
});
