import { commaList, text } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, bearer, call, list, obj, RATE_LIMITED, seg, serviceTool, str, type CallSpec, type Obj } from '../http.js';

type Missing = 'calendar' | 'event' | 'text';

const NOT_FOUND: Record<Missing, string> = {
  calendar: 'Calendar not found. Please check the calendar ID.',
  event: 'Event not found. Please check the event ID.',
  text: 'Calendar not found. Please check the calendar ID.',
};

async function calendar(io: ToolIO, p: Obj, path: string, missing: Missing, spec: Omit<CallSpec, 'url'> = {}): Promise<Obj> {
  const cal = seg(text(p.calendarId) || 'primary');
  const res = await call(io, { ...spec, url: `${io.baseUrl('googleCalendar')}/calendars/${cal}/events${path}`, headers: bearer(p.accessToken), answerStatuses: RATE_LIMITED });
  if (res.ok) return obj(res.data);
  const message = apiMessage(res);
  if (res.status === 401) throw new ToolError('Invalid or expired access token. Please reauthenticate.', 401);
  if (res.status === 429 || (res.status === 403 && /quota|rate limit/i.test(message))) throw new ToolError('Google Calendar API quota exceeded. Please try again later.', res.status);
  if (res.status === 404) throw new ToolError(NOT_FOUND[missing], 404);
  if (res.status === 400 && missing === 'text') throw new ToolError('Could not parse the natural language text. Please try a different format.', 400);
  throw new ToolError(`Google Calendar API error: ${message}`, res.status);
}

/** Attendees as an array or a comma separated string; blanks dropped (§5). */
const emails = (value: unknown) => commaList(value);
const sendUpdates = (p: Obj) => text(p.sendUpdates) || 'all';

/** A calendar event as the tools answer it (§3). */
function calendarEvent(value: unknown) {
  const e = obj(value);
  return { id: e.id, htmlLink: e.htmlLink, status: e.status, summary: e.summary, description: e.description, location: e.location, start: e.start, end: e.end, attendees: e.attendees, creator: e.creator, organizer: e.organizer };
}

/** Google Calendar tools: create, list, get, quick add (then PATCH attendees), invite (GET then PUT). */
export const googleCalendarTools: ServiceTool[] = [
  serviceTool('google_calendar_create', async (p, io) => {
    const time = (dateTime: unknown) => ({ dateTime: text(dateTime), ...(text(p.timeZone) ? { timeZone: text(p.timeZone) } : {}) });
    const body: Obj = { summary: text(p.summary), start: time(p.startDateTime), end: time(p.endDateTime) };
    if (text(p.description)) body.description = text(p.description);
    if (text(p.location)) body.location = text(p.location);
    const attendees = emails(p.attendees);
    if (attendees.length) body.attendees = attendees.map((email) => ({ email }));
    const e = await calendar(io, p, '', 'calendar', { method: 'POST', query: { sendUpdates: sendUpdates(p) }, json: body });
    return { content: `Event "${String(e.summary)}" created successfully`, metadata: calendarEvent(e) };
  }),
  serviceTool('google_calendar_list', async (p, io) => {
    const d = await calendar(io, p, '', 'calendar', { query: { singleEvents: 'true', orderBy: 'startTime', timeMin: text(p.timeMin), timeMax: text(p.timeMax) } });
    const events = list(d.items).map(calendarEvent);
    return { content: events.length ? `Found ${events.length} events` : 'No events found', metadata: { nextPageToken: d.nextPageToken, timeZone: d.timeZone, events } };
  }),
  serviceTool('google_calendar_get', async (p, io) => {
    const e = await calendar(io, p, `/${seg(text(p.eventId))}`, 'event');
    return { content: `Retrieved event "${String(e.summary)}"`, metadata: calendarEvent(e) };
  }),
  serviceTool('google_calendar_quick_add', async (p, io) => {
    let e = await calendar(io, p, '/quickAdd', 'text', { method: 'POST', query: { text: text(p.text), sendUpdates: sendUpdates(p) } });
    const attendees = emails(p.attendees);
    if (attendees.length) {
      e = await calendar(io, p, `/${seg(String(e.id))}`, 'event', { method: 'PATCH', query: { sendUpdates: sendUpdates(p) }, json: { attendees: attendees.map((email) => ({ email })) } });
    }
    return { content: `Event "${String(e.summary)}" created successfully`, metadata: calendarEvent(e) };
  }),
  serviceTool('google_calendar_invite', async (p, io) => {
    const id = `/${seg(text(p.eventId))}`;
    const existing = await calendar(io, p, id, 'event');
    if (!existing.start || !existing.end || !str(existing.summary)) throw new ToolError('Existing event is missing required fields (start, end or summary)');
    const current = list(existing.attendees).map(obj);
    const kept = p.replaceExisting === true || p.replaceExisting === 'true' ? [] : current;
    const known = new Set(kept.map((a) => String(a.email).toLowerCase()));
    // Newly invited attendees start as needsAction (§4).
    const added = emails(p.attendees).filter((email) => !known.has(email.toLowerCase())).map((email) => ({ email, responseStatus: 'needsAction' }));
    const e = await calendar(io, p, id, 'event', { method: 'PUT', query: { sendUpdates: sendUpdates(p) }, json: { ...existing, attendees: [...kept, ...added] } });
    return { content: `Invited ${added.length} attendee(s) to "${String(e.summary)}"`, metadata: calendarEvent(e) };
  }),
];
