/** The entry colour of a workflow when none is chosen (spec 000 §3). */
export const DEFAULT_WORKFLOW_COLOR = '#3972F6';
/** Marketplace workflows are drawn gray (spec 000 §9). */
export const MARKETPLACE_COLOR = '#808080';
/** Description of a new workflow (spec 000 §9). */
export const DEFAULT_DESCRIPTION = 'New workflow';

/** The 46 colours a new workflow draws from (spec 000 §9). */
export const WORKFLOW_COLORS = [
  '#3972F6', '#F639DD', '#F6B539', '#8139F6', '#39B54A', '#39B5AB', '#B5A039', '#8139B5', '#B53981', '#39A0B5',
  '#F63939', '#F67939', '#F6E439', '#A9F639', '#39F65B', '#39F6C6', '#39D6F6', '#3998F6', '#5E39F6', '#C039F6',
  '#F639A8', '#F6395E', '#E57373', '#F06292', '#BA68C8', '#9575CD', '#7986CB', '#64B5F6', '#4FC3F7', '#4DD0E1',
  '#4DB6AC', '#81C784', '#AED581', '#DCE775', '#FFD54F', '#FFB74D', '#FF8A65', '#A1887F', '#90A4AE', '#00897B',
  '#5C6BC0', '#26A69A', '#EC407A', '#AB47BC', '#7E57C2', '#29B6F6',
] as const;

const ADJECTIVES = [
  'amber', 'brisk', 'calm', 'daring', 'eager', 'fuzzy', 'gentle', 'hidden', 'icy', 'jolly', 'keen', 'lively',
  'mellow', 'nimble', 'orange', 'proud', 'quiet', 'rapid', 'silent', 'tidy', 'upbeat', 'vivid', 'witty', 'young',
];
const NOUNS = [
  'anchor', 'breeze', 'comet', 'delta', 'ember', 'falcon', 'glacier', 'harbor', 'island', 'jungle', 'kite', 'lagoon',
  'meadow', 'nebula', 'orchid', 'pebble', 'quartz', 'river', 'summit', 'tundra', 'valley', 'willow', 'yonder', 'zephyr',
];

/** A random two-word name such as 'brisk-falcon'; `random` returns [0, 1). */
export function randomWorkflowName(random: () => number): string {
  return `${pick(ADJECTIVES, random)}-${pick(NOUNS, random)}`;
}

/** A colour from the palette of 46. */
export function randomWorkflowColor(random: () => number): string {
  return pick(WORKFLOW_COLORS, random);
}

function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}
