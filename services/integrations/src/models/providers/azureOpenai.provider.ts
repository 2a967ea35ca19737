import { AzureOpenAI } from 'openai';
import { guardedSdkFetch } from '../../net/sdkFetch.js';
import { AZURE_OWN_KEY_REQUIRED, azureTarget, outboundPolicy } from '../config.js';
import { ModelRequestError } from '../errors.js';
import type { ProviderAdapter } from '../types.js';
import { callCompatible } from './openaiCompatible.js';

export const AZURE_ENDPOINT_REQUIRED =
  'Azure OpenAI endpoint is required. Please provide it via azureEndpoint parameter or AZURE_OPENAI_ENDPOINT environment variable.';

/**
 * Azure OpenAI (api version 2024-07-01-preview unless `AZURE_OPENAI_API_VERSION`): the model
 * `azure/<deployment>` names the deployment; JSON schemas are strict unless `strict` is false.
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
    const client = new AzureOpenAI({
      apiKey: req.apiKey,
      endpoint: target.endpoint,
      apiVersion: req.azureApiVersion ?? config.azureApiVersion,
      deployment,
      maxRetries: 0,
      ...(target.user ? { fetch: guardedSdkFetch(outboundPolicy(config)) } : {}),
    });
    return callCompatible(client, req, { provider: 'azure-openai', wireModel: deployment, toolUsageControl: true }, sink, signal);
  },
};
