import { z } from 'zod';

const providerSchema = z.object({
  authorizeUrl: z.string().url(),
  tokenUrl: z.string().url(),
  clientId: z.string().min(1),
  clientSecret: z.string().default(''),
  scopes: z.array(z.string()).default([]),
});

/** An OAuth provider the registry can connect accounts of. */
export type OAuthProvider = z.infer<typeof providerSchema>;

const registryConfigSchema = z.object({
  /** Workflows a workspace may hold before creation answers upgradeRequired. */
  WEFT_WORKFLOW_LIMIT: z.coerce.number().int().positive().default(500),
  /**
   * Encryption keys `id:base64(32 bytes)`, comma separated; the first encrypts, all decrypt (rotation).
   * When unset, a key is generated once under WEFT_DATA_DIR.
   */
  WEFT_ENCRYPTION_KEYS: z.string().optional(),
  WEFT_DATA_DIR: z.string().optional(),
  /** JSON map of provider id → {authorizeUrl, tokenUrl, clientId, clientSecret, scopes}. */
  WEFT_OAUTH_PROVIDERS: z
    .string()
    .default('{}')
    .transform((text, ctx) => {
      try {
        return z.record(z.string(), providerSchema).parse(JSON.parse(text));
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `must be a JSON map of providers (${String(err)})` });
        return z.NEVER;
      }
    }),
  /** Refresh an access token when it expires within this many seconds. */
  WEFT_OAUTH_REFRESH_SKEW_S: z.coerce.number().int().nonnegative().default(300),
});

export type RegistryConfig = z.infer<typeof registryConfigSchema>;

/** The registry's own settings; a bad value throws naming the variable (never its value). */
export function loadRegistryConfig(env: NodeJS.ProcessEnv = process.env): RegistryConfig {
  const parsed = registryConfigSchema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`Invalid registry configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}
