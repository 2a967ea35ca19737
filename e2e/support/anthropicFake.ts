import { anthropicMessagesHandler, type FakeModelTurn, type FakeServer, type RecordedRequest } from '@weft/testkit';

type MessagesBody = { messages?: Array<{ role?: string; content?: unknown }> };

/** The text of a messages request's user turns (plain strings and text blocks). */
function userText(body: MessagesBody): string {
  const parts: string[] = [];
  for (const m of body.messages ?? []) {
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') parts.push(m.content);
    else if (Array.isArray(m.content)) for (const block of m.content as Array<{ type?: string; text?: unknown }>) if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
  }
  return parts.join('\n');
}

/**
 * Anthropic's messages API (`POST /v1/messages`) on the stack's model fake, which the stack's
 * WEFT_ANTHROPIC_BASE_URL names. Scripted from test processes: `POST /_fake/anthropic/script {marker,
 * turns}` makes a request whose user turns carry the marker get the turns in order, then the last
 * again; any other request gets the fake's default answer.
 */
export function serveAnthropic(server: FakeServer): void {
  const scripts = new Map<string, { turns: FakeModelTurn[]; served: number }>();
  server.on('POST', '/_fake/anthropic/script', (req) => {
    const { marker, turns } = (req.body ?? {}) as { marker?: string; turns?: FakeModelTurn[] };
    if (!marker || !Array.isArray(turns) || turns.length === 0) return { status: 400, json: { error: 'marker and turns are required' } };
    scripts.set(marker, { turns, served: 0 });
    return { json: { ok: true } };
  });
  server.on(
    'POST',
    '/v1/messages',
    anthropicMessagesHandler((req: RecordedRequest) => {
      const text = userText((req.body ?? {}) as MessagesBody);
      for (const [marker, script] of scripts) {
        if (!text.includes(marker)) continue;
        const turn = script.turns[Math.min(script.served, script.turns.length - 1)];
        script.served += 1;
        if (turn) return turn;
      }
      return { content: 'Hello from the fake model.' };
    }),
  );
}
