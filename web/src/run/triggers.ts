/** How a run was started, as the runner records it (`RunTrigger` in services/runner), in the order the history's filter offers them. */
export const RUN_TRIGGERS = ['manual', 'api', 'webhook', 'schedule', 'chat', 'workflow'] as const;

const LABELS: Readonly<Record<(typeof RUN_TRIGGERS)[number], string>> = {
  manual: 'Manual',
  api: 'API',
  webhook: 'Webhook',
  schedule: 'Schedule',
  chat: 'Chat',
  workflow: 'Workflow',
};

const isKnown = (trigger: string): trigger is (typeof RUN_TRIGGERS)[number] => Object.hasOwn(LABELS, trigger);

/**
 * A run's trigger as the web shows it (`api` → "API"); one the app does not know yet (a newer runner's)
 * with its first letter capitalised and `_`/`-` as spaces, never dropped.
 */
export function triggerLabel(trigger: string): string {
  if (isKnown(trigger)) return LABELS[trigger];
  const words = trigger.replace(/[_-]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Unknown';
}
