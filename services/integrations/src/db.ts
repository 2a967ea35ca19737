import type { ColumnType, Generated } from 'kysely';

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
}
