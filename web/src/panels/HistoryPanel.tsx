import type { History } from '@weft/workflow';
import { historyRows } from './history';

/** The undo history, oldest first; clicking an entry other than the present one reverts to it. */
export function HistoryPanel({ history, onRevert }: { history: History; onRevert(index: number): void }) {
  return (
    <section className="panel" aria-label="History">
      <h2>History</h2>
      <ol className="history">
        {historyRows(history).map((row) => (
          <li key={row.index} className={row.place}>
            <button type="button" aria-current={row.place === 'present' ? 'step' : undefined} disabled={row.place === 'present'} onClick={() => onRevert(row.index)}>
              {row.action}
              {/* The initial entry has no time. */}
              {row.timestamp > 0 && <time dateTime={new Date(row.timestamp).toISOString()}>{new Date(row.timestamp).toLocaleTimeString()}</time>}
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
