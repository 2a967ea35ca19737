import { historyView, type History } from '@weft/workflow';

/** Where an entry sits relative to the state shown now. */
export type HistoryPlace = 'past' | 'present' | 'future';

/** One line of the history panel; `index` is what `revertToHistory` takes. */
export interface HistoryRow {
  index: number;
  action: string;
  timestamp: number;
  place: HistoryPlace;
}

/** The undo history as panel rows, oldest first (past, present, future), numbered as `historyView` numbers them. */
export function historyRows(history: History): HistoryRow[] {
  const view = historyView(history);
  return [
    ...view.past.map((item) => ({ ...item, place: 'past' as const })),
    { ...view.present, place: 'present' as const },
    ...view.future.map((item) => ({ ...item, place: 'future' as const })),
  ];
}
