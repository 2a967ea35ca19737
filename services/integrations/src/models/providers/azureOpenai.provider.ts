import { AzureOpenAI } from 'openai';
import { guardedSdkFetch } from '../../net/sdkFetch.js';
import { AZURE_OWN_KEY_REQUIRED, azureTarget, outboundPolicy } from '../config.js';
import { ModelRequestError } from '../errors.js';
import type { ProviderAdapter } from '../types.js';
import { callCompatible, isReasoningModel } from './openaiCompatible.js';

/** The first Azure api versions that take stream_options, json_schema response formats and the reasoning models. */
export const AZURE_STREAM_USAGE_VERSION = '2024-09-01-preview';
export const AZURE_JSON_SCHEMA_VERSION = '2024-08-01-preview';
/** o1 and o3-mini are served from 2024-12-01-preview; o3, o4-mini, codex-mini and gpt-5 (and any later reasoning model) only from 2025-04-01-preview. */
export const AZURE_REASONING_VERSION = '2024-12-01-preview';
export const AZURE_LATER_REASONING_VERSION = '2025-04-01-preview';

/** The first api version Azure serves reasoning deployment `deployment` with (named after its model). */
export function azureReasoningVersion(deployment: string): string {
  return /^(?:o1(?:-|$)|o3-mini(?:-|$))/.test(deployment) ? AZURE_REASONING_VERSION : AZURE_LATER_REASONING_VERSION;
}

/** Whether api version `version` is `min` or later, by date ('2024-10-21' ≥ '2024-09-01-preview'); a version without a date (a future scheme) is taken as new. */
export function azureVersionAtLeast(version: string, min: string): boolean {
  const date = /^(\d{4}-\d{2}-\d{2})/.exec(version.trim())?.[1];
  if (!date) return true;
  return date >= min.slice(0, 10);
}

/**
 * What a call to an Azure deployment may send under its api version: the configured one (2024-07-01-preview by
 * default, §9), except that a reasoning deployment is called with at least the version Azure serves its model from
 * (azureReasoningVersion: o1 and o3-mini 2024-12-01-preview, o3, o4-mini and gpt-5 2025-04-01-preview); stream
 * usage and json_schema only where the version has them. The model is known only by the deployment's name
 * (`azure/<deployment>` is all the block chooses), so a reasoning deployment must be named after its model.
 */
export function azureCallShape(deployment: string, configured: string): { apiVersion: string; reasoning: boolean; streamUsage: boolean; responseFormat: 'json_schema' | 'json_object' } {
  const reasoning = isReasoningModel(deployment);
  const min = reasoning ? azureReasoningVersion(deployment) : undefined;
  const apiVersion = min && !azureVersionAtLeast(configured, min) ? min : configured;
  return {
    apiVersion,
    reasoning,
    streamUsage: azureVersionAtLeast(apiVersion, AZURE_STREAM_USAGE_VERSION),
    responseFormat: azureVersionAtLeast(apiVersion, AZURE_JSON_SCHEMA_VERSION) ? 'json_schema' : 'json_object',
  };
}

export const AZURE_ENDPOINT_REQUIRED =
  'Azure OpenAI endpoint is required. Please provide it via azureEndpoint parameter or AZURE_OPENAI_ENDPOINT environment variable.';

/**
 * Azure OpenAI (api version 2024-07-01-preview unless `AZURE_OPENAI_API_VERSION` or the block's): the model
 * `azure/<deployment>` names the deployment; JSON schemas are strict unless `strict` is false. What the api
 * version lacks is left out (azureCallShape): a stream's usage (tokens then unknown), json_schema (json_object
 * with the schema in the system prompt instead).
 * An endpoint the block typed is reached through the outbound guard (no loopback, private,
 * link-local or metadata address unless the operator allows it) and only with the block's own key.
 */
export const azureOpenaiAdapter: ProviderAdapter = {
  id: 'azure-openai',
  call(req, config, sink, signal) {
    const target = azureTarget(config, req.azureEndpoint);
    if (!target) throw new ModelRequestError(AZURE_ENDPOINT_REQUIRED);
    // callModel already refused a user endpoint without the block's key; this keeps any other caller from sending the operator's.
    if (target.user && req.apiKey === config.keys['azure-openai']) throw new ModelRequestError(AZURE_OWN_KEY_REQUIRED);
    const deployment = req.model.replace(/^azure\//, '');
    // The deployment becomes a path segment unescaped by the SDK: only Azure's name characters, so a model cannot reach another path with the key.
    if (!/^[A-Za-z0-9._-]+$/.test(deployment) || /^\.+$/.test(deployment)) throw new ModelRequestError(`Invalid model selected: ${req.model}`);
    const shape = azureCallShape(deployment, req.azureApiVersion?.trim() || config.azureApiVersion.trim());
    const client = new AzureOpenAI({
      apiKey: req.apiKey,
      endpoint: target.endpoint,
      apiVersion: shape.apiVersion,
      deployment,
      maxRetries: 0,
      ...(target.user ? { fetch: guardedSdkFetch(outboundPolicy(config)) } : {}),
    });
    const { reasoning, streamUsage, responseFormat } = shape;
    return callCompatible(client, req, { provider: 'azure-openai', wireModel: deployment, toolUsageControl: true, reasoning, streamUsage, responseFormat }, sink, signal);
  },
};
