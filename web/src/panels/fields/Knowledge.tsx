import { useQuery } from '@tanstack/react-query';
import type { SubBlockConfig } from '@weft/catalog';
import { api } from '../../api';
import { MultiField, SelectField } from './Choice';
import { useFormEnv } from './FormContext';
import { useFormWorkspaceId } from './Integrations';

interface Props {
  field: SubBlockConfig;
  label: string;
  value: unknown;
  onChange(value: unknown): void;
}

/** A knowledge base of the workflow's workspace (one, or several as comma-separated ids when the field is `multiple`). */
export function KnowledgeBaseField(props: Props) {
  const workspaceId = useFormWorkspaceId();
  const bases = useQuery({ queryKey: ['knowledge-bases', workspaceId], queryFn: () => api.knowledgeBases(workspaceId), enabled: Boolean(workspaceId) });
  const field = { ...props.field, options: (bases.data ?? []).map((b) => ({ id: b.id, label: b.name })) };
  if (props.field.multiple) {
    return (
      <>
        <MultiField {...props} field={field} asText />
        {bases.data?.length === 0 && <span className="field-hint">No knowledge bases yet: create one under Settings › Knowledge.</span>}
      </>
    );
  }
  return <SelectField {...props} field={field} />;
}

/** A document of the knowledge base chosen in the same block's `knowledgeBaseId` field. */
export function DocumentField(props: Props) {
  const env = useFormEnv();
  const chosen = env.state.blocks[env.blockId]?.subBlocks.knowledgeBaseId?.value;
  const baseId = typeof chosen === 'string' && !chosen.includes('<') ? chosen : '';
  const documents = useQuery({ queryKey: ['knowledge-documents', baseId], queryFn: () => api.knowledgeDocuments(baseId), enabled: Boolean(baseId) });
  const field = { ...props.field, placeholder: baseId ? props.field.placeholder : 'Choose a knowledge base first', options: (documents.data ?? []).map((d) => ({ id: d.id, label: d.name })) };
  return <SelectField {...props} field={field} />;
}
