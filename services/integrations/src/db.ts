import type { ColumnType, Generated } from 'kysely';

type Tags = { tag1: string | null; tag2: string | null; tag3: string | null; tag4: string | null; tag5: string | null; tag6: string | null; tag7: string | null };

/** The integrations schema's tables, as kysely sees them. */
export interface IntegrationsDB {
  memories: {
    id: string;
    workflow_id: string;
    key: string;
    type: string;
    data: ColumnType<unknown, string, string>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
  knowledge_bases: {
    id: string;
    workspace_id: string;
    name: string;
    description: Generated<string>;
    embedding_model: string;
    chunking: ColumnType<unknown, string, string>;
    created_by: Generated<string>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
  knowledge_documents: Tags & {
    id: string;
    knowledge_base_id: string;
    name: string;
    mime_type: string;
    file_size: number;
    character_count: number;
    chunk_count: Generated<number>;
    token_count: Generated<number>;
    enabled: Generated<boolean>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
  knowledge_chunks: {
    id: string;
    knowledge_base_id: string;
    document_id: string;
    chunk_index: number;
    content: string;
    token_count: number;
    enabled: Generated<boolean>;
    embedding_model: string;
    /** A pgvector literal or a float8[] literal, written through `vectorStore`. */
    embedding: ColumnType<unknown, unknown, unknown>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
}
