import { sql, type Kysely, type Migration } from 'kysely';
import { EXACT_FORCED } from './pgvectorUpgrade.js';

export { EXACT_FORCED, upgradeToPgvector } from './pgvectorUpgrade.js';

/** The integrations service's own tables: agent memories and knowledge bases. */
export const migrations: Record<string, Migration> = {
  '0001_memories': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('memories')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workflow_id', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('data', 'jsonb', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint('memories_workflow_key', ['workflow_id', 'key'])
        .execute();
    },
  },
  '0002_knowledge': knowledge('auto'),
};

/**
 * How `knowledge_chunks.embedding` is stored: `auto` makes it a pgvector `vector` when the server has
 * the extension (double precision[] otherwise, converted by upgradeToPgvector at a later start once it
 * has), `exact` always double precision[], marked EXACT_FORCED so it is never converted (the tests
 * force it so the exact search stays tested on a server with pgvector).
 */
export type VectorColumn = 'auto' | 'exact';

/** The service's migrations with the embedding column chosen by `vectors`. */
export function integrationsMigrations(vectors: VectorColumn): Record<string, Migration> {
  return { ...migrations, '0002_knowledge': knowledge(vectors) };
}

function knowledge(vectors: VectorColumn): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // pgvector when the server has it (installed into public, which every service's search_path ends
      // with); a failed CREATE EXTENSION (no rights) is caught inside the block and leaves the exact path.
      let vectorSchema: string | undefined;
      if (vectors === 'auto') {
        await sql`DO $$ BEGIN
          IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
            CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public;
          END IF;
        EXCEPTION WHEN OTHERS THEN NULL;
        END $$`.execute(db);
        // Where the extension is: public, or the schema the operator created it in before.
        const ext = await sql<{ schema: string }>`SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`.execute(db);
        vectorSchema = ext.rows[0]?.schema;
      }
      await db.schema
        .createTable('knowledge_bases')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('embedding_model', 'text', (c) => c.notNull())
        .addColumn('chunking', 'jsonb', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('knowledge_bases_workspace').on('knowledge_bases').columns(['workspace_id', 'created_at']).execute();
      let documents = db.schema
        .createTable('knowledge_documents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('knowledge_base_id', 'text', (c) => c.notNull().references('knowledge_bases.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('mime_type', 'text', (c) => c.notNull())
        .addColumn('file_size', 'integer', (c) => c.notNull())
        .addColumn('character_count', 'integer', (c) => c.notNull())
        .addColumn('chunk_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('token_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true));
      for (let n = 1; n <= 7; n++) documents = documents.addColumn(`tag${n}`, 'text');
      await documents
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('knowledge_documents_base').on('knowledge_documents').columns(['knowledge_base_id', 'created_at']).execute();
      await db.schema
        .createTable('knowledge_chunks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('knowledge_base_id', 'text', (c) => c.notNull().references('knowledge_bases.id').onDelete('cascade'))
        .addColumn('document_id', 'text', (c) => c.notNull().references('knowledge_documents.id').onDelete('cascade'))
        .addColumn('chunk_index', 'integer', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('token_count', 'integer', (c) => c.notNull())
        .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
        .addColumn('embedding_model', 'text', (c) => c.notNull())
        // No fixed dimension: each knowledge base keeps its own model; search compares within one model.
        .addColumn('embedding', vectorSchema ? sql`${sql.id(vectorSchema)}.vector` : sql`double precision[]`, (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint('knowledge_chunks_document_index', ['document_id', 'chunk_index'])
        .execute();
      if (vectors === 'exact') await sql`COMMENT ON COLUMN knowledge_chunks.embedding IS ${sql.lit(EXACT_FORCED)}`.execute(db);
      await db.schema.createIndex('knowledge_chunks_base').on('knowledge_chunks').columns(['knowledge_base_id', 'embedding_model']).execute();
    },
  };
}
