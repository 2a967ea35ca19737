import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type KnowledgeBase, type Workspace } from '../api';
import { Icon } from '../ui/icons';
import { useConfirm } from '../ui/confirm';
import { KnowledgeSearch } from './KnowledgeSearch';
import { useToast } from '../ui/toast';
import { SettingsList, submitted } from './SettingsList';

const counts = (b: KnowledgeBase) => `${b.documentCount ?? 0} document${b.documentCount === 1 ? '' : 's'} · ${b.chunkCount ?? 0} chunk${b.chunkCount === 1 ? '' : 's'}`;

/** One knowledge base: its documents, a text document to add (chunked and embedded by the server), deletes. */
function KnowledgeBaseCard({ base, onClose }: { base: KnowledgeBase; onClose(): void }) {
  const toast = useToast();
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const documents = useQuery({ queryKey: ['knowledge-documents', base.id], queryFn: () => api.knowledgeDocuments(base.id) });
  const [name, setName] = useState('');
  const [content, setContent] = useState('');
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: ['knowledge-documents', base.id] }), queryClient.invalidateQueries({ queryKey: ['knowledge-bases'] })]);
  const add = useMutation({
    mutationFn: () => api.addKnowledgeText(base.id, name.trim(), content),
    onSuccess: async () => {
      setName('');
      setContent('');
      await refresh();
      toast.success('Document added');
    },
    onError: (e) => toast.error(`Failed to add the document: ${e.message}`),
  });
  const remove = useMutation({ mutationFn: (documentId: string) => api.deleteKnowledgeDocument(base.id, documentId), onSettled: refresh, onError: (e) => toast.error(e.message) });
  return (
    <div className="settings-card" role="region" aria-label={`Knowledge base ${base.name}`}>
      <div className="settings-actions start">
        <button type="button" className="btn btn-sm" onClick={onClose}>
          <Icon name="chevron" size={12} className="flip" /> All knowledge bases
        </button>
      </div>
      <h2>{base.name}</h2>
      {base.description && <p className="muted">{base.description}</p>}
      <h3>Documents</h3>
      <SettingsList
        label="Documents"
        items={documents.data}
        empty="No documents yet."
        error={documents.error}
        row={(d) => ({
          key: d.id,
          icon: 'DocumentIcon',
          title: <strong>{d.name}</strong>,
          detail: `${d.chunkCount} chunk${d.chunkCount === 1 ? '' : 's'} · ${d.characterCount.toLocaleString()} characters`,
          actions: (
            <button type="button" className="icon-btn" aria-label={`Delete ${d.name}`} onClick={() => void confirm({ title: `Delete “${d.name}”?`, message: 'Its chunks are no longer found by Knowledge blocks.', confirmLabel: 'Delete document' }).then((yes) => yes && remove.mutate(d.id))}>
              <Icon name="trash" size={14} />
            </button>
          ),
        })}
      />
      <h3>Add a document</h3>
      <form
        className="stack-form"
        aria-label="Add a document"
        onSubmit={submitted(() => add.mutate())}
      >
        <input className="input" required aria-label="Document name" placeholder="Document name" value={name} onChange={(e) => setName(e.target.value)} />
        <textarea className="input" required aria-label="Document text" placeholder="Paste the text to search; it is split into chunks and embedded." rows={6} value={content} onChange={(e) => setContent(e.target.value)} />
        <div className="settings-actions">
          <button type="submit" className="btn btn-primary" disabled={add.isPending}>
            {add.isPending ? 'Adding…' : 'Add document'}
          </button>
        </div>
      </form>
      <KnowledgeSearch base={base} />
    </div>
  );
}

/** The workspace's knowledge bases (what Knowledge blocks search): list, create, open, delete. */
export function KnowledgeTab({ workspace }: { workspace: Workspace | undefined }) {
  const toast = useToast();
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const workspaceId = workspace?.id ?? '';
  const bases = useQuery({ queryKey: ['knowledge-bases', workspaceId], queryFn: () => api.knowledgeBases(workspaceId), enabled: Boolean(workspaceId) });
  const [openId, setOpenId] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['knowledge-bases'] });
  const create = useMutation({
    mutationFn: () => api.createKnowledgeBase(workspaceId, name.trim(), description.trim()),
    onSuccess: async (created) => {
      setName('');
      setDescription('');
      await refresh();
      setOpenId(created.id);
    },
    onError: (e) => toast.error(`Failed to create the knowledge base: ${e.message}`),
  });
  const remove = useMutation({ mutationFn: (id: string) => api.deleteKnowledgeBase(id), onSettled: refresh, onError: (e) => toast.error(e.message) });
  const open = bases.data?.find((b) => b.id === openId);
  if (open) return <KnowledgeBaseCard base={open} onClose={() => setOpenId(null)} />;
  return (
    <div className="settings-card">
      <p className="muted">
        Documents of <strong>{workspace?.name}</strong> that Knowledge blocks and agents search by meaning. Embeddings use your <code>OPENAI_API_KEY</code> environment variable.
      </p>
      <form
        className="inline-form"
        onSubmit={submitted(() => create.mutate())}
      >
        <input className="input" required aria-label="Knowledge base name" placeholder="Name, e.g. Team handbook" value={name} onChange={(e) => setName(e.target.value)} />
        <input className="input" aria-label="Knowledge base description" placeholder="Description (optional)" value={description} onChange={(e) => setDescription(e.target.value)} />
        <button type="submit" className="btn btn-primary" disabled={create.isPending || !workspaceId}>
          <Icon name="plus" size={14} /> Create
        </button>
      </form>
      <SettingsList
        label="Knowledge bases"
        items={bases.data}
        empty="No knowledge bases yet."
        error={bases.error}
        row={(b) => ({
          key: b.id,
          icon: 'PackageSearchIcon',
          title: (
            <button type="button" className="link-btn" onClick={() => setOpenId(b.id)}>
              <strong>{b.name}</strong>
            </button>
          ),
          detail: counts(b),
          actions: (
            <button type="button" className="icon-btn" aria-label={`Delete ${b.name}`} onClick={() => void confirm({ title: `Delete “${b.name}”?`, message: 'The knowledge base and all its documents are deleted. Knowledge blocks using it stop finding anything.', confirmLabel: 'Delete knowledge base' }).then((yes) => yes && remove.mutate(b.id))}>
              <Icon name="trash" size={14} />
            </button>
          ),
        })}
      />
    </div>
  );
}
