import type { FormEvent, ReactNode } from 'react';
import { Icon, type IconName } from '../ui/icons';

/** One row of a settings list: an icon, a title with a line under it, and the row's buttons. */
export interface SettingsRow {
  key: string;
  icon: IconName;
  title: ReactNode;
  detail?: ReactNode;
  actions?: ReactNode;
}

/** A settings page's list of things (tools, keys, knowledge bases…), with its line for none and for a failed load. */
export function SettingsList<T>({ label, items, empty, error, row }: { label: string; items: readonly T[] | undefined; empty: string; error?: Error | null; row(item: T): SettingsRow }) {
  return (
    <ul className="settings-list" aria-label={label}>
      {(items ?? []).map((item) => {
        const r = row(item);
        return (
          <li key={r.key}>
            <Icon name={r.icon} />
            <div className="grow">
              {r.title}
              {r.detail !== undefined && <div className="muted">{r.detail}</div>}
            </div>
            {r.actions}
          </li>
        );
      })}
      {items?.length === 0 && <li className="muted">{empty}</li>}
      {items === undefined && !error && <li className="muted">Loading…</li>}
      {error && <li className="form-error">{error.message}</li>}
    </ul>
  );
}

/** A form's submit handler that stays on the page and does `act`. */
export const submitted = (act: () => void) => (e: FormEvent) => {
  e.preventDefault();
  act();
};
