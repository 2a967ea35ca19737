import { AzureOpenAI } from 'openai';
import { ModelRequestError } from '../errors.js';
import type { ProviderAdapter } from '../types.js';
import { callCompatible } from './openaiCompatible.js';

export const AZURE_ENDPOINT_REQUIRED =
  'Azure OpenAI endpoint is required. Please provide it via azureEndpoint parameter or AZURE_OPENAI_ENDPOINT environment variable.';

/**
 * Azure OpenAI (api version 2024-07-01-preview unless `AZURE_OPENAI_API_VERSION`): the model
 * `azure/<deployment>` names the deployment; JSON schemas are strict unless `strict` is false.
 */
export const azureOpenaiAdapter: ProviderAdapter = {
  id: 'azure-openai',
  call(req, config, sink, signal) {
    const endpoint = req.azureEndpoint?.trim() || config.azureEndpoint;
    if (!endpoint) throw new ModelRequestError(AZURE_ENDPOINT_REQUIRED);
    const deployment = req.model.replace(/^azure\//, '');
    const client = new AzureOpenAI({ apiKey: req.apiKey, endpoint, apiVersion: req.azureApiVersion ?? config.azureApiVersion, deployment, maxRetries: 0 });
    return callCompatible(client, req, { provider: 'azure-openai', wireModel: deployment, toolUsageControl: true }, sink, signal);
  },
};
