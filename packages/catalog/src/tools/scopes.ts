/**
 * OAuth scopes per provider (spec 001 §6). Where §6 says the lists exist but does not show them
 * (Airtable, Jira, Linear, Teams, Outlook, Excel, Confluence), we use the provider's documented
 * scopes for the operations the tools perform.
 */
export const SCOPES = {
  slack: [
    'channels:read', 'channels:history', 'groups:read', 'groups:history', 'chat:write',
    'chat:write.public', 'users:read', 'files:write', 'canvases:write',
  ],
  wealthbox: ['login', 'data'],
  x: ['tweet.read', 'tweet.write', 'users.read'],
  notionRead: ['workspace.content', 'page.read'],
  notionWrite: ['workspace.content', 'page.write'],
  notionDatabase: ['workspace.content', 'database.read'],
  gmail: [
    'https://www.googleapis.com/auth/gmail.send',
    'https://www.googleapis.com/auth/gmail.labels',
    'https://www.googleapis.com/auth/gmail.compose',
  ],
  reddit: ['read'],
  googleDrive: ['https://www.googleapis.com/auth/drive.file'],
  googleSheets: ['https://www.googleapis.com/auth/drive.file', 'https://www.googleapis.com/auth/spreadsheets'],
  github: ['repo', 'read:user'],
  googleCalendar: ['https://www.googleapis.com/auth/calendar'],
  confluence: ['read:page:confluence', 'write:page:confluence', 'read:me', 'offline_access'],
  airtable: ['data.records:read', 'data.records:write'],
  jira: ['read:jira-work', 'write:jira-work', 'read:jira-user', 'read:me', 'offline_access'],
  linear: ['read', 'write'],
  microsoftTeams: ['openid', 'profile', 'email', 'User.Read', 'Chat.Read', 'Chat.ReadWrite', 'ChannelMessage.Read.All', 'ChannelMessage.Send', 'offline_access'],
  outlook: ['openid', 'profile', 'email', 'Mail.ReadWrite', 'Mail.ReadBasic', 'Mail.Read', 'Mail.Send', 'offline_access'],
  microsoftExcel: ['openid', 'profile', 'email', 'Files.Read', 'Files.ReadWrite', 'offline_access'],
} as const satisfies Record<string, readonly string[]>;
