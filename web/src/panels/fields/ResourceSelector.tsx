import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useInfiniteQuery, useQuery, type InfiniteData, type QueryKey } from '@tanstack/react-query';
import type { SubBlockConfig } from '@weft/catalog';
import { api, type SelectorItem, type SelectorPage } from '../../api';
import { Icon } from '../../ui/icons';
import { ComboToggle } from './ComboToggle';
import { useFormBlock, useFormEnv } from './FormContext';
import { chosenItemId, chosenLabel, isListKey, isReference, LIST_MAX_HEIGHT, listPlacement, listProblem, nextActive, pageItems, pickedValue, resourceNoun, selectorValues } from './selectors';

interface Props {
  field: SubBlockConfig;
  label: string;
  value: unknown;
  onChange(value: unknown): void;
}

/** How long typing rests before the search is sent. */
const SEARCH_DELAY_MS = 250;

/** Names of items chosen before, by block type, field and id: a choice found by a search keeps its name when the list is not searched. */
const chosenNames = new Map<string, SelectorItem>();

/** What clips an element: its nearest scrolling ancestor's box within the window. */
function clipOf(el: HTMLElement): { top: number; bottom: number } {
  let top = 0;
  let bottom = window.innerHeight;
  for (let p = el.parentElement; p; p = p.parentElement) {
    const overflow = getComputedStyle(p).overflowY;
    if (overflow !== 'auto' && overflow !== 'scroll' && overflow !== 'hidden') continue;
    const box = p.getBoundingClientRect();
    top = Math.max(top, box.top);
    bottom = Math.min(bottom, box.bottom);
    break;
  }
  return { top, bottom };
}

/** `value`, once it has stopped changing for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(t);
  }, [value, ms]);
  return settled;
}

const KIND_ICON: Record<string, string> = { 'channel-selector': 'hash', 'folder-selector': 'folder', 'project-selector': 'layout', 'file-selector': 'DocumentIcon' };

/**
 * A resource selector (spec 001 §2 file, folder, project and channel selectors): a searchable list
 * of the provider's channels, files, projects … by name, from POST /api/tools/selectors/list with
 * the block's account and the other values the list depends on (so it lists again when they
 * change). Typing searches on the server; "Load more" follows the answer's cursor; arrows, Enter
 * and Escape work the list. The chosen item's id is stored; closed, the field shows its name (asked
 * for by id when the loaded list does not hold it; the id itself when the provider has no such item).
 */
export function ResourceSelectorField({ field, label, value, onChange }: Props) {
  const id = useId();
  const listId = `${id}-list`;
  const env = useFormEnv();
  const block = useFormBlock();
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [activeRow, setActive] = useState(0);
  const [placement, setPlacement] = useState({ up: false, maxHeight: LIST_MAX_HEIGHT });
  const search = useSettled(query.trim(), SEARCH_DELAY_MS);
  const current = typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value);

  const definition = env.definitions.find((d) => d.type === block.blockType);
  const values = selectorValues(definition?.subBlocks ?? [], block.values, field.id);
  const dependsOn = JSON.stringify(values);
  const scope = [env.workflowId, block.blockType, field.id, dependsOn];
  const answers = useInfiniteQuery<SelectorPage, Error, InfiniteData<SelectorPage, string>, QueryKey, string>({
    queryKey: ['selector', ...scope, search],
    queryFn: ({ pageParam, signal }) =>
      api.selectorItems({ workflowId: env.workflowId, blockType: block.blockType, fieldId: field.id, values, ...(search ? { search } : {}), ...(pageParam ? { cursor: pageParam } : {}) }, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor || undefined,
    enabled: definition !== undefined && env.workflowId !== '',
    // A provider's 4xx or 5xx is the user's to fix (or wait out), not something a second call mends.
    retry: false,
    staleTime: 60_000,
    // While a search is typed the last list stays up; after a change of account it does not (those items are another account's).
    placeholderData: (previous, previousQuery) => (previousQuery && JSON.stringify(previousQuery.queryKey.slice(1, 5)) === JSON.stringify(scope) ? previous : undefined),
  });
  const items = useMemo(() => pageItems(answers.data?.pages), [answers.data]);
  const nameKey = `${block.blockType}/${field.id}/${current}`;
  const remembered = chosenNames.get(nameKey);
  const listed = chosenLabel(current, items, remembered ? [remembered] : []);
  // A choice the loaded (unsearched) list does not hold — channel #130 of 130 after a reload — is
  // asked for by id (the answer's `selected`), so the field shows its name, not its id.
  const lookup = useQuery({
    queryKey: ['selector-selected', ...scope, current],
    queryFn: ({ signal }) => api.selectorItems({ workflowId: env.workflowId, blockType: block.blockType, fieldId: field.id, values, selectedId: current }, signal),
    enabled: current !== '' && !listed.known && !isReference(current) && answers.isSuccess && !answers.isPlaceholderData && !search && definition !== undefined,
    retry: false,
    staleTime: 60_000,
  });
  const found = lookup.data?.selected;
  const chosen = listed.known || !found ? listed : chosenLabel(current, [found]);
  // The listed item marked as chosen: by id, or the item a choice stored as an alias (a Jira key, a
  // channel's name) names — the route's `selected.itemId`, the exact item, never one of the same name.
  const chosenId = chosenItemId(current, items, found ?? remembered);
  const problem = listProblem(answers.error);
  const more = answers.hasNextPage && !problem;
  const rows = items.length + (more ? 1 : 0);
  // A search answering fewer items leaves the highlight on the last row, not past it.
  const active = Math.min(activeRow, rows - 1);
  const noun = resourceNoun(field);
  const icon = KIND_ICON[field.type] ?? 'search';

  useLayoutEffect(() => {
    const el = input.current;
    if (open && el) setPlacement(listPlacement(el.getBoundingClientRect(), clipOf(el)));
  }, [open]);

  // The highlighted row kept in view by scrolling the list alone: scrollIntoView would scroll the
  // panel too, sliding the list under a resting pointer, which would then highlight another row.
  useEffect(() => {
    const box = list.current;
    const row = box?.querySelector<HTMLElement>(`[data-index="${active}"]`);
    if (!box || !row) return;
    if (row.offsetTop < box.scrollTop) box.scrollTop = row.offsetTop;
    else if (row.offsetTop + row.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = row.offsetTop + row.offsetHeight - box.clientHeight;
  }, [active, open]);

  const close = () => {
    setOpen(false);
    setQuery('');
    setActive(0);
  };
  const pick = (item: SelectorItem) => {
    chosenNames.set(`${block.blockType}/${field.id}/${item.id}`, item);
    close();
    // The chosen item picked again keeps the value as stored (an alias stays the alias).
    const next = pickedValue(item.id, current, chosenId);
    if (next !== undefined) onChange(next);
  };
  const loadMore = () => void answers.fetchNextPage();
  const choose = (index: number) => {
    if (index < items.length) {
      const item = items[index];
      if (item) pick(item);
    } else if (more) loadMore();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const key = e.key;
    if (isListKey(key) && (open || key === 'ArrowDown' || key === 'ArrowUp')) {
      e.preventDefault();
      if (!open) setOpen(true);
      else setActive(nextActive(active, rows, key));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (open) choose(active);
      else setOpen(true);
    } else if (e.key === 'Escape' && open) {
      // Closing the list is all Escape does here: the canvas does not also see it.
      e.preventDefault();
      e.stopPropagation();
      close();
    }
  };

  const shown = open ? query : current === '' ? '' : chosen.name;
  const status = answers.isFetching && !answers.isFetchingNextPage ? 'loading' : problem ? problem.kind : items.length === 0 && answers.isSuccess ? 'empty' : null;
  return (
    <div className="field field-selector" data-state={status ?? 'ready'}>
      <label htmlFor={id}>{label}</label>
      <div className={`selector${open ? ' open' : ''}${current !== '' && !open ? ' has-value' : ''}`}>
        <span className="selector-icon" aria-hidden="true">
          {answers.isFetching && !answers.isFetchingNextPage ? <span className="spinner" /> : <Icon name={open ? 'search' : icon} size={14} />}
        </span>
        <input
          ref={input}
          id={id}
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && active < items.length && items[active] ? `${id}-opt-${active}` : undefined}
          aria-describedby={problem && !open ? `${id}-problem` : undefined}
          className={`input${current !== '' && !open && !chosen.known ? ' mono' : ''}`}
          placeholder={open ? `Search ${noun}…` : (field.placeholder ?? `Select ${noun}`)}
          title={current !== '' && chosen.known ? `${chosen.name} (${current})` : undefined}
          value={shown}
          autoComplete="off"
          spellCheck={false}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
          onBlur={close}
          onChange={(e) => {
            setQuery(e.target.value);
            setOpen(true);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        {current !== '' && (
          <button
            type="button"
            className="selector-clear"
            aria-label={`Clear ${label}`}
            title="Clear"
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => {
              close();
              onChange('');
            }}
          >
            <Icon name="x" size={12} />
          </button>
        )}
        <ComboToggle label={label} open={open} input={input} show={() => setOpen(true)} close={close}>
          <Icon name={open ? 'chevronUp' : 'chevronDown'} size={14} />
        </ComboToggle>
        {open && (
          <div className={`combo-list selector-list${placement.up ? ' up' : ''}`} style={{ maxHeight: placement.maxHeight }} ref={list} onMouseDown={(e) => e.preventDefault()}>
            <div id={listId} role="listbox" aria-label={label} aria-busy={answers.isFetching}>
              {items.map((item, i) => (
                <div
                  key={item.id}
                  id={`${id}-opt-${i}`}
                  data-index={i}
                  role="option"
                  aria-selected={item.id === chosenId}
                  className={`combo-option selector-option${i === active ? ' on' : ''}${item.id === chosenId ? ' chosen' : ''}`}
                  onMouseMove={() => i !== active && setActive(i)}
                  onClick={() => pick(item)}
                >
                  <span className="selector-option-text">
                    <span className="selector-option-name">{item.name || item.id}</span>
                    {item.detail && <span className="selector-option-detail">{item.detail}</span>}
                  </span>
                  {item.id === chosenId && <Icon name="check" size={13} />}
                </div>
              ))}
            </div>
            {more && (
              <button type="button" tabIndex={-1} data-index={items.length} className={`selector-more${active === items.length ? ' on' : ''}`} onMouseMove={() => active !== items.length && setActive(items.length)} onClick={loadMore} disabled={answers.isFetchingNextPage}>
                {answers.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </button>
            )}
            {status === 'loading' && items.length === 0 && <div className="selector-note">Loading {noun}…</div>}
            {status === 'empty' && <div className="selector-note">{search ? `No ${noun} match “${search}”` : `No ${noun} found`}</div>}
            {problem && <div className={`selector-note ${problem.kind}`}>{problem.message}</div>}
          </div>
        )}
      </div>
      {problem && !open && (
        <span id={`${id}-problem`} className={problem.kind === 'hint' ? 'field-hint' : 'field-error'} role={problem.kind === 'error' ? 'alert' : undefined}>
          {problem.message}
        </span>
      )}
    </div>
  );
}
