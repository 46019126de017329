import { useChannels } from '../api/channels.js';
import { useOnCallPeople, useSchedules } from '../api/schedules.js';
import type { TargetDirectory } from './policy-words.js';

/** What steps may name, read from the API: the schedules, the people who can be paged, the channels. */
export function useTargetDirectory(): { directory: TargetDirectory; error: string | null } {
  const schedules = useSchedules();
  const people = useOnCallPeople();
  const channels = useChannels();
  return {
    directory: {
      schedules: schedules.data ?? [],
      people: people.data ?? [],
      channels: channels.data ?? [],
    },
    error: schedules.error ?? people.error ?? channels.error,
  };
}
