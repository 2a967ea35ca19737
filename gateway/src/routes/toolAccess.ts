import { getTool } from '@weft/catalog';

/**
 * Whether a tool run through `POST /api/proxy` needs write access to the workflow: it does when it
 * changes stored data through an internal route whose direct call needs write access — the memory
 * routes other than reads, and a knowledge base's documents and chunks (adding them; the search is
 * a read). Today: memory_add, memory_delete, knowledge_create_document, knowledge_upload_chunk.
 * Tools that reach outside services, or the workflow executor (its route checks access to the
 * workflow it runs), need read access to the calling workflow.
 */
export function toolNeedsWrite(toolId: string): boolean {
  const tool = getTool(toolId);
  if (!tool?.request.isInternalRoute || tool.request.method === 'GET' || tool.request.method === 'HEAD') return false;
  const path = tool.request.url.replace(/^\/api/, '').replace(/\?.*$/, '');
  return path === '/memory' || path.startsWith('/memory/') || (path.startsWith('/knowledge/') && path !== '/knowledge/search');
}
