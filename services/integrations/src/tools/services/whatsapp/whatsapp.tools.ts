import { text, validateWhatsapp } from '@weft/catalog';
import { ToolError, type ServiceTool } from '../../serviceTool.js';
import { apiMessage, bearer, call, list, obj, seg, serviceTool } from '../http.js';

/** WhatsApp Cloud API text message (graph v22.0); the number's leading + is removed. */
export const whatsappTools: ServiceTool[] = [
  serviceTool('whatsapp_send_message', async (p, io) => {
    const invalid = validateWhatsapp(p);
    if (invalid) throw new ToolError(invalid);
    const res = await call(io, {
      method: 'POST',
      url: `${io.baseUrl('whatsapp')}/${seg(text(p.phoneNumberId))}/messages`,
      headers: bearer(text(p.accessToken)),
      json: { messaging_product: 'whatsapp', recipient_type: 'individual', to: text(p.phoneNumber).replace(/^\+/, ''), type: 'text', text: { body: String(p.message) } },
    });
    if (!res.ok) throw new ToolError(`WhatsApp message failed: ${apiMessage(res)}`, res.status);
    return { success: true, messageId: obj(list(obj(res.data).messages)[0]).id };
  }),
];
