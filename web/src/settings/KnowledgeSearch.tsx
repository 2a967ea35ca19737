import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { api, type KnowledgeBase } from '../api';
import { Icon } from '../ui/icons';
import { submitted } from './SettingsList';

/** How many chunks a search in the settings shows (the Knowledge block's default is 10). */
const SHOWN = 5;

/** Searches one knowledge base by meaning, as a Knowledge block would, and shows the closest chunks. */
export function KnowledgeSearch({ base }: { base: KnowledgeBase }) {
  const [query, setQuery] = useState('');
  const search = useMutation({ mutationFn: (q: string) => api.searchKnowledge(base.id, q, SHOWN) });
  const asked = query.trim();
  return (
    <section className="kb-search" aria-label="Search this knowledge base">
      <h3>Search</h3>
      <form role="search" aria-label="Search documents" className="inline-form" onSubmit={submitted(() => asked && search.mutate(asked))}>
        <input className="input" type="search" aria-label="Search query" placeholder="What do the documents say about…" value={query} onChange={(e) => setQuery(e.target.value)} />
        <button type="submit" className="btn" disabled={search.isPending || !asked}>
          <Icon name="search" size={14} /> {search.isPending ? 'Searching…' : 'Search'}
        </button>
      </form>
      {search.error && <p className="form-error">{search.error.message}</p>}
      {search.data?.length === 0 && <p className="muted">Nothing in this knowledge base matches “{search.variables}”.</p>}
      {Boolean(search.data?.length) && (
        <ol className="kb-results" aria-label="Search results">
          {search.data?.map((hit) => (
            <li key={hit.id}>
              <div className="kb-result-head">
                <Icon name="DocumentIcon" size={14} />
                <strong>{hit.documentName}</strong>
                <span className="muted">chunk {hit.chunkIndex + 1}</span>
                <span className="pill pill-accent" title="Cosine similarity to the query">
                  {Math.round(hit.similarity * 100)}% match
                </span>
              </div>
              <p>{hit.content}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
