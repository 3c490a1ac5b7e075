import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { CronFields } from '@/features/schedules/cron';

export type TaskAction = 'command' | 'power' | 'backup';
export const TASK_ACTIONS: readonly TaskAction[] = ['command', 'power', 'backup'];
export const POWER_ACTIONS = ['start', 'stop', 'restart', 'kill'] as const;
/** The panel refuses an eleventh task (SCHEDULE_TASK_LIMIT_REACHED). */
export const MAX_TASKS = 10;
export const MAX_TIME_OFFSET = 3600;

/** ScheduleTaskResponseDto. */
export interface ScheduleTask {
  id: string;
  sequence_id: number;
  action: TaskAction;
  payload: string;
  time_offset: number;
  continue_on_failure: boolean;
  is_queued: boolean;
}

/** ScheduleResponseDto; `cron` is "minute hour day-of-month month day-of-week", evaluated in UTC. */
export interface Schedule {
  id: string;
  name: string;
  cron: string;
  is_active: boolean;
  is_processing: boolean;
  only_when_online: boolean;
  last_run_at: string | null;
  next_run_at: string;
  tasks: ScheduleTask[];
}

interface ScheduleInput {
  name: string;
  cron: CronFields;
  is_active?: boolean;
  only_when_online?: boolean;
}

interface TaskInput {
  action: TaskAction;
  payload?: string;
  time_offset: number;
  continue_on_failure: boolean;
}

const keys = {
  all: (server: string) => ['schedules', server] as const,
  list: (server: string) => ['schedules', server, 'list'] as const,
  one: (server: string, id: string) => ['schedules', server, 'one', id] as const,
};
const P = '/api/client/servers/{server}/schedules' as const;
const S = '/api/client/servers/{server}/schedules/{schedule}' as const;

/** How often a running schedule is fetched again, so its end (last run, queued tasks) shows without a reload. */
const POLL_MS = 2000;

/** The schedules (one page of 100; the panel sets no per-server limit, and a server with more is no use to read). */
export const schedulesQuery = (server: string) =>
  queryOptions({
    queryKey: keys.list(server),
    queryFn: async (): Promise<Schedule[]> => {
      const { data } = await api.GET(P, { params: { path: { server }, query: { perPage: 100 } } } as never);
      return (data as unknown as { data: Schedule[] }).data;
    },
    refetchInterval: (query) => (query.state.data?.some((s) => s.is_processing) ? POLL_MS : false),
  });

export const scheduleQuery = (server: string, id: string) =>
  queryOptions({
    queryKey: keys.one(server, id),
    queryFn: async (): Promise<Schedule> => {
      const { data } = await api.GET(S, { params: { path: { server, schedule: id } } } as never);
      return (data as unknown as { data: Schedule }).data;
    },
    refetchInterval: (query) => (query.state.data?.is_processing ? POLL_MS : false),
  });

const useScheduleMutation = <T, R = unknown>(server: string, fn: (input: T) => Promise<R>) => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: keys.all(server) }) });
};

const dataOf = <T,>({ data }: { data?: unknown }): T => (data as { data: T }).data;

export const useCreateSchedule = (server: string) =>
  useScheduleMutation(server, async (input: ScheduleInput) => dataOf<Schedule>(await api.POST(P, { params: { path: { server } }, body: input } as never)));

export const useUpdateSchedule = (server: string) =>
  useScheduleMutation(server, async ({ id, ...changes }: Partial<ScheduleInput> & { id: string }) =>
    dataOf<Schedule>(await api.POST(S, { params: { path: { server, schedule: id } }, body: changes } as never)),
  );

export const useRunSchedule = (server: string) =>
  useScheduleMutation(server, (id: string) => api.POST(`${S}/run`, { params: { path: { server, schedule: id } } } as never));

export const useDeleteSchedule = (server: string) =>
  useScheduleMutation(server, (id: string) => api.DELETE(S, { params: { path: { server, schedule: id } } } as never));

export const useCreateTask = (server: string, schedule: string) =>
  useScheduleMutation(server, (input: TaskInput) => api.POST(`${S}/tasks`, { params: { path: { server, schedule } }, body: input } as never));

export const useDeleteTask = (server: string, schedule: string) =>
  useScheduleMutation(server, (task: string) => api.DELETE(`${S}/tasks/{task}`, { params: { path: { server, schedule, task } } } as never));
