import type { ToolConfig } from '../types.js';
import { accessToken, bearer, may, need, oauth, toolFamily } from './define.js';
import { SCOPES } from './scopes.js';

const tool = toolFamily({
  baseUrl: 'https://www.googleapis.com/calendar/v3/calendars/{calendarId}/events',
  headers: bearer(),
  common: {
    accessToken: accessToken('Google Calendar'),
    calendarId: may('string', 'user', 'Calendar ID (defaults to primary)', 'primary'),
  },
  oauth: oauth('google-calendar', SCOPES.googleCalendar),
});

const sendUpdates = may('string', 'user', 'How to send updates to attendees: all, externalOnly, or none', 'all');
const attendees = may('array', 'llm', 'Array of attendee email addresses (or a comma separated string)');

/** Google Calendar event tools. */
export const googleCalendarTools: ToolConfig[] = [
  tool('google_calendar_create', 'Google Calendar Create Event', 'Create a new event in Google Calendar', 'POST', '?sendUpdates={sendUpdates}', {
    summary: need('string', 'llm', 'Event title/summary'),
    description: may('string', 'llm', 'Event description'),
    location: may('string', 'llm', 'Event location'),
    startDateTime: need('string', 'llm', 'Start date and time (RFC3339 format)'),
    endDateTime: need('string', 'llm', 'End date and time (RFC3339 format)'),
    timeZone: may('string', 'llm', 'Time zone (e.g., America/Los_Angeles)'),
    attendees,
    sendUpdates,
  }),
  tool('google_calendar_list', 'Google Calendar List Events', 'List events from Google Calendar', 'GET', '?singleEvents=true&orderBy=startTime', {
    timeMin: may('string', 'llm', 'Lower bound for events (RFC3339 timestamp)'),
    timeMax: may('string', 'llm', 'Upper bound for events (RFC3339 timestamp)'),
  }),
  tool('google_calendar_get', 'Google Calendar Get Event', 'Get a specific event from Google Calendar', 'GET', '/{eventId}', {
    eventId: need('string', 'llm', 'Event ID to retrieve'),
  }),
  tool('google_calendar_quick_add', 'Google Calendar Quick Add', 'Create events from natural language text', 'POST', '/quickAdd?text={text}&sendUpdates={sendUpdates}', {
    text: need('string', 'llm', 'Natural language text describing the event (e.g., "Meeting with John tomorrow at 3pm")'),
    attendees,
    sendUpdates,
  }),
  tool('google_calendar_invite', 'Google Calendar Invite Attendees', 'Invite attendees to an existing Google Calendar event', 'PUT', '/{eventId}?sendUpdates={sendUpdates}', {
    eventId: need('string', 'llm', 'Event ID to invite attendees to'),
    attendees: need('array', 'llm', 'Array of attendee email addresses to invite'),
    sendUpdates,
    replaceExisting: may('boolean', 'user', 'Whether to replace existing attendees or add to them', false),
  }),
];
