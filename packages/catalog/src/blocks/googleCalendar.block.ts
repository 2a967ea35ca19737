import { commaList, operationTool, text } from '../paramValues.js';
import { SCOPES } from '../tools/scopes.js';
import type { BlockConfig } from '../types.js';
import { credentialField, dropdown, longInput, operationField, selectorPair, shortInput, when } from './fields.js';

const TOOL_BY_OPERATION = {
  create: 'google_calendar_create',
  list: 'google_calendar_list',
  get: 'google_calendar_get',
  quick_add: 'google_calendar_quick_add',
  invite: 'google_calendar_invite',
} as const;

const NOTIFY_OPS = ['create', 'quick_add', 'invite'];

/** Calendar defaults to primary; attendees split on commas with blanks dropped; sendUpdates defaults to all. */
function calendarParams(p: Record<string, unknown>): Record<string, unknown> {
  const { manualCalendarId, ...rest } = p;
  const out: Record<string, unknown> = { ...rest, calendarId: text(p.calendarId) || text(manualCalendarId) || 'primary' };
  if (p.attendees !== undefined) out.attendees = commaList(p.attendees);
  if (NOTIFY_OPS.includes(text(p.operation))) out.sendUpdates = text(p.sendUpdates) || 'all';
  return out;
}

/** Google Calendar: create, list, get, quick-add events and invite attendees. */
export const googleCalendarBlock: BlockConfig = {
  type: 'google_calendar',
  name: 'Google Calendar',
  description: 'Manage Google Calendar events',
  longDescription:
    'Integrate Google Calendar to create, read, list and quick-add events, and invite attendees. Attendees are comma separated; notifications default to all.',
  docsLink: 'https://docs.weft.dev/tools/google_calendar',
  category: 'tools',
  bgColor: '#E0E0E0',
  icon: 'GoogleCalendarIcon',
  subBlocks: [
    operationField([['create', 'Create Event'], ['list', 'List Events'], ['get', 'Get Event'], ['quick_add', 'Quick Add (Natural Language)'], ['invite', 'Invite Attendees']]),
    credentialField('google-calendar', 'google-calendar', 'Google Calendar Account', SCOPES.googleCalendar),
    ...selectorPair(
      { id: 'calendarId', title: 'Calendar', type: 'file-selector', layout: 'full', provider: 'google-calendar', serviceId: 'google-calendar', placeholder: 'Select calendar' },
      { id: 'manualCalendarId', title: 'Calendar ID', placeholder: 'Enter calendar ID (e.g., primary or calendar@gmail.com)' },
    ),
    shortInput('summary', 'Event Title', 'Meeting with team', { condition: when('operation', 'create') }),
    longInput('description', 'Description', 'Event description', { condition: when('operation', 'create') }),
    shortInput('location', 'Location', 'Conference Room A', { condition: when('operation', 'create') }),
    shortInput('startDateTime', 'Start Date & Time', '2025-06-03T10:00:00-08:00', { layout: 'half', condition: when('operation', 'create') }),
    shortInput('endDateTime', 'End Date & Time', '2025-06-03T11:00:00-08:00', { layout: 'half', condition: when('operation', 'create') }),
    shortInput('attendees', 'Attendees (comma-separated emails)', 'john@example.com, jane@example.com', { condition: when('operation', ['create', 'quick_add', 'invite']) }),
    shortInput('timeMin', 'Start Time Filter', '2025-06-03T00:00:00Z', { layout: 'half', condition: when('operation', 'list') }),
    shortInput('timeMax', 'End Time Filter', '2025-06-04T00:00:00Z', { layout: 'half', condition: when('operation', 'list') }),
    shortInput('eventId', 'Event ID', 'Enter event ID', { condition: when('operation', ['get', 'invite']) }),
    { id: 'replaceExisting', title: 'Replace Existing Attendees', type: 'switch', layout: 'full', defaultValue: false, condition: when('operation', 'invite') },
    shortInput('text', 'Natural Language Event', 'Meeting with John tomorrow at 3pm for 1 hour', { condition: when('operation', 'quick_add') }),
    dropdown('sendUpdates', 'Send Email Notifications', [['all', 'All attendees (recommended)'], ['externalOnly', 'External attendees only'], ['none', 'None (no emails sent)']], { condition: when('operation', NOTIFY_OPS) }),
  ],
  tools: {
    access: Object.values(TOOL_BY_OPERATION),
    config: { tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid Google Calendar operation: ${op}`), params: calendarParams },
  },
  inputs: {
    operation: { type: 'string', required: true },
    credential: { type: 'string', required: true },
    calendarId: { type: 'string', required: false },
    summary: { type: 'string', required: false },
    description: { type: 'string', required: false },
    location: { type: 'string', required: false },
    startDateTime: { type: 'string', required: false },
    endDateTime: { type: 'string', required: false },
    attendees: { type: 'string', required: false },
    timeMin: { type: 'string', required: false },
    timeMax: { type: 'string', required: false },
    eventId: { type: 'string', required: false },
    text: { type: 'string', required: false },
    sendUpdates: { type: 'string', required: false },
    replaceExisting: { type: 'boolean', required: false },
  },
  outputs: { content: 'string', metadata: 'json' },
};
