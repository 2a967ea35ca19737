import { GOOGLE_FIXTURES, createFakeGoogle } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { googleCalendarTools } from './googleCalendar.tools.js';

const gc = useFamily(createFakeGoogle, { googleCalendar: '/calendar/v3' }, googleCalendarTools);
const t = { accessToken: 'ya29' };
const EV = '/calendar/v3/calendars/primary/events';
const auth = { authorization: 'Bearer ya29' };
const json = { ...auth, 'content-type': 'application/json' };

describe('google calendar', () => {
  it('google_calendar_create posts the event to primary with sendUpdates all', async () => {
    const r = await gc.run('google_calendar_create', { ...t, summary: 'Planning', startDateTime: '2025-06-01T10:00:00Z', endDateTime: '2025-06-01T11:00:00Z', timeZone: 'UTC', attendees: 'ada@acme.example.invalid, ,bob@acme.example.invalid', location: 'Room 1' });
    gc.expectRequest('google_calendar_create', 'POST', EV, {
      headers: json,
      query: { sendUpdates: 'all' },
      body: {
        summary: 'Planning',
        location: 'Room 1',
        start: { dateTime: '2025-06-01T10:00:00Z', timeZone: 'UTC' },
        end: { dateTime: '2025-06-01T11:00:00Z', timeZone: 'UTC' },
        attendees: [{ email: 'ada@acme.example.invalid' }, { email: 'bob@acme.example.invalid' }],
      },
    });
    expect(r).toMatchObject({ success: true, output: { content: 'Event "Planning" created successfully', metadata: { id: 'ev-new', status: 'confirmed' } } });
  });

  it('google_calendar_create: 401, quota and unknown calendar messages', async () => {
    const p = { ...t, calendarId: 'team@acme.example.invalid', summary: 's', startDateTime: 'a', endDateTime: 'b' };
    gc.fake.once('POST', '/calendar/v3/calendars/:cal/events', { status: 401, json: {} });
    await gc.expectError('google_calendar_create', p, 'Invalid or expired access token. Please reauthenticate.');
    gc.fake.once('POST', '/calendar/v3/calendars/:cal/events', { status: 403, json: { error: { message: 'Rate Limit Exceeded' } } });
    await gc.expectError('google_calendar_create', p, 'Google Calendar API quota exceeded. Please try again later.');
    gc.fake.once('POST', '/calendar/v3/calendars/:cal/events', { status: 404, json: {} });
    await gc.expectError('google_calendar_create', p, 'Calendar not found. Please check the calendar ID.');
    expect(gc.fake.requests[0]?.path).toBe('/calendar/v3/calendars/team%40acme.example.invalid/events');
  });

  it('google_calendar_list lists single events ordered by start time', async () => {
    const r = await gc.run('google_calendar_list', { ...t, timeMin: '2025-06-01T00:00:00Z' });
    gc.expectRequest('google_calendar_list', 'GET', EV, { headers: auth, query: { singleEvents: 'true', orderBy: 'startTime', timeMin: '2025-06-01T00:00:00Z' } });
    expect(r).toMatchObject({ success: true, output: { content: 'Found 2 events', metadata: { nextPageToken: 'ev-next', timeZone: 'UTC', events: [{ id: 'ev-1' }, { id: 'ev-2', summary: 'Retro' }] } } });
    gc.fake.once('GET', '/calendar/v3/calendars/:cal/events', { status: 429, json: {} });
    await gc.expectError('google_calendar_list', t, 'Google Calendar API quota exceeded. Please try again later.');
  });

  it('google_calendar_get reads one event; 404 names the event', async () => {
    const r = await gc.run('google_calendar_get', { ...t, eventId: 'ev-9' });
    gc.expectRequest('google_calendar_get', 'GET', `${EV}/ev-9`, { headers: auth });
    expect(r).toEqual({ success: true, output: { content: 'Retrieved event "Planning"', metadata: GOOGLE_FIXTURES.event('ev-9') } });
    gc.fake.once('GET', '/calendar/v3/calendars/:cal/events/:id', { status: 404, json: {} });
    await gc.expectError('google_calendar_get', { ...t, eventId: 'x' }, 'Event not found. Please check the event ID.');
  });

  it('google_calendar_quick_add creates from text, then PATCHes the attendees', async () => {
    const r = await gc.run('google_calendar_quick_add', { ...t, text: 'Lunch with Ada tomorrow at noon', attendees: ['ada@acme.example.invalid', ''] });
    gc.expectRequest('google_calendar_quick_add', 'POST', `${EV}/quickAdd`, { headers: auth, query: { text: 'Lunch with Ada tomorrow at noon', sendUpdates: 'all' } });
    gc.expectRequest('google_calendar_quick_add', 'PATCH', `${EV}/ev-quick`, { headers: json, query: { sendUpdates: 'all' }, body: { attendees: [{ email: 'ada@acme.example.invalid' }] } });
    expect(r).toMatchObject({ success: true, output: { content: 'Event "Lunch with Ada" created successfully', metadata: { id: 'ev-quick', attendees: [{ email: 'ada@acme.example.invalid' }] } } });
  });

  it('google_calendar_quick_add without attendees skips the PATCH; unparsable text has its message', async () => {
    await gc.run('google_calendar_quick_add', { ...t, text: 'Lunch', sendUpdates: 'none' });
    expect(gc.fake.received('PATCH', '/calendar/v3/calendars/:cal/events/:id')).toHaveLength(0);
    gc.fake.once('POST', `${EV}/quickAdd`, { status: 400, json: { error: { message: 'Bad Request' } } });
    await gc.expectError('google_calendar_quick_add', { ...t, text: '???' }, 'Could not parse the natural language text. Please try a different format.');
  });

  it('google_calendar_invite adds new attendees as needsAction and PUTs the event', async () => {
    const r = await gc.run('google_calendar_invite', { ...t, eventId: 'ev-1', attendees: 'ADA@acme.example.invalid, cy@acme.example.invalid', sendUpdates: 'externalOnly' });
    gc.expectRequest('google_calendar_invite', 'GET', `${EV}/ev-1`, { headers: auth });
    gc.expectRequest('google_calendar_invite', 'PUT', `${EV}/ev-1`, {
      headers: json,
      query: { sendUpdates: 'externalOnly' },
      body: { ...GOOGLE_FIXTURES.event('ev-1'), attendees: [{ email: 'ada@acme.example.invalid', responseStatus: 'accepted' }, { email: 'cy@acme.example.invalid', responseStatus: 'needsAction' }] },
    });
    expect(r).toMatchObject({ success: true, output: { content: 'Invited 1 attendee(s) to "Planning"' } });
  });

  it('google_calendar_invite replaces attendees when asked and refuses an incomplete event', async () => {
    await gc.run('google_calendar_invite', { ...t, eventId: 'ev-1', attendees: ['cy@acme.example.invalid'], replaceExisting: true });
    expect((gc.only('PUT', `${EV}/ev-1`).body as { attendees: unknown }).attendees).toEqual([{ email: 'cy@acme.example.invalid', responseStatus: 'needsAction' }]);
    gc.fake.once('GET', '/calendar/v3/calendars/:cal/events/:id', { json: { id: 'ev-2', summary: 'No times' } });
    await gc.expectError('google_calendar_invite', { ...t, eventId: 'ev-2', attendees: 'a@b.c' }, 'Existing event is missing required fields (start, end or summary)');
    gc.fake.once('GET', '/calendar/v3/calendars/:cal/events/:id', { status: 404, json: {} });
    await gc.expectError('google_calendar_invite', { ...t, eventId: 'x', attendees: 'a@b.c' }, 'Event not found. Please check the event ID.');
  });
});
