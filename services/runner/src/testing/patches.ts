import type { History } from '@temporalio/common/lib/proto-utils.js';

/** The patches a run's history records (its `core_patch` markers' ids), in order. */
export function patchesOf(history: History): string[] {
  return (history.events ?? []).flatMap((e) => {
    const attrs = e.markerRecordedEventAttributes;
    const data = attrs?.markerName === 'core_patch' ? attrs.details?.['patch-data']?.payloads?.[0]?.data : undefined;
    return data ? [(JSON.parse(Buffer.from(data).toString('utf8')) as { id: string }).id] : [];
  });
}
