import { isBlank } from '../paramValues.js';

/** A validator answering the message of the first blank required field, in order. */
export function requireFields(rules: ReadonlyArray<readonly [field: string, message: string]>) {
  return (params: Record<string, unknown>): string | undefined => rules.find(([field]) => isBlank(params[field]))?.[1];
}

/** WhatsApp: number, message, phone number id and access token. */
export const validateWhatsapp = requireFields([
  ['phoneNumber', 'Phone number is required'],
  ['message', 'Message is required'],
  ['phoneNumberId', 'Phone number ID is required'],
  ['accessToken', 'Access token is required'],
]);

/** Twilio SMS: numbers, message, sender and credentials. */
export const validateTwilioSms = requireFields([
  ['phoneNumbers', 'Phone numbers are required but not provided'],
  ['message', 'Message text is required but not provided'],
  ['fromNumber', 'From number is required but not provided'],
  ['accountSid', 'Account SID is required but not provided'],
  ['authToken', 'Auth token is required but not provided'],
]);
