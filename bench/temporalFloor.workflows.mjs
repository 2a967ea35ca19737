// Workflows of bench/temporalFloor.bench.mjs: the least a Temporal run can do.
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';

const remote = proxyActivities({ startToCloseTimeout: '10s' });
const local = proxyLocalActivities({ startToCloseTimeout: '10s' });

export async function empty() {
  return 1;
}

export async function activityChain(n) {
  for (let i = 0; i < n; i++) await remote.ping(i);
  return n;
}

export async function localActivityChain(n) {
  for (let i = 0; i < n; i++) await local.ping(i);
  return n;
}
