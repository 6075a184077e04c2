import type { Resolvers } from '../generated/graphql.js';
import { analyticsResolvers } from './analytics.js';
import { handoffResolvers } from './handoffs.js';
import { importResolvers } from './imports.js';
import { lineageResolvers } from './lineage.js';
import { liveResolvers } from './live.js';
import { planningResolvers } from './planning.js';
import { providerResolvers } from './providers.js';
import { runResolvers } from './runs.js';
import { threadResolvers } from './threads.js';

const modules: Resolvers[] = [
  threadResolvers,
  runResolvers,
  providerResolvers,
  handoffResolvers,
  planningResolvers,
  lineageResolvers,
  analyticsResolvers,
  importResolvers,
  liveResolvers,
];

/** One resolver map per schema module, merged type by type. */
export function mergedResolvers(): Record<string, Record<string, unknown>> {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const module of modules) {
    for (const [typeName, fields] of Object.entries(module)) merged[typeName] = { ...merged[typeName], ...fields };
  }
  return merged;
}
