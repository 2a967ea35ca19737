import { Router, type Response } from 'express';
import type { z } from 'zod';
import {
  getAllBlocks,
  getAllBlocksRequestSchema,
  getBlocksAndTools,
  getBlocksMetadata,
  getBlocksMetadataRequestSchema,
  listBlocks,
  listProviders,
  listTools,
  validateBlockParams,
  validateBlockRequestSchema,
} from '@weft/catalog';
import { describeBodyIssues } from '../validate.js';

/** Parses a body for the copilot-style routes, which answer `{success: false, error}` when it is bad. */
function parseOr400<S extends z.ZodType>(schema: S, body: unknown, res: Response): z.infer<S> | undefined {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  res.status(400).json({ success: false, error: describeBodyIssues(parsed.error) });
  return undefined;
}

/**
 * The block catalogue, tool metadata and providers (pure data from @weft/catalog), and the copilot's
 * catalogue calls. Block definitions go out as JSON: their selector and mapper functions stay here.
 */
export function catalogRoutes(): Router {
  const r = Router();
  r.get('/blocks', (_req, res) => {
    res.json({ data: listBlocks() });
  });
  r.get('/tools', (_req, res) => {
    res.json({ data: listTools() });
  });
  r.get('/providers', (_req, res) => {
    res.json({ data: listProviders() });
  });
  r.post('/blocks/validate', (req, res) => {
    const body = parseOr400(validateBlockRequestSchema, req.body, res);
    if (body) res.json(validateBlockParams(body.blockType, body.params));
  });
  r.post('/tools/get-blocks-and-tools', (_req, res) => {
    res.json({ success: true, data: getBlocksAndTools() });
  });
  r.post('/tools/get-blocks-metadata', (req, res) => {
    const body = parseOr400(getBlocksMetadataRequestSchema, req.body, res);
    if (body) res.json({ success: true, data: getBlocksMetadata(body.blockIds) });
  });
  r.post('/tools/get-all-blocks', (req, res) => {
    const body = parseOr400(getAllBlocksRequestSchema, req.body, res);
    if (body) res.json({ success: true, data: getAllBlocks(body) });
  });
  return r;
}
