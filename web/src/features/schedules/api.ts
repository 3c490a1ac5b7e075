import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';

/** ScheduleResponseDto; `cron` is "minute hour day-of-month month day-of-week", evaluated in UTC. */
export type Schedule = components['schemas']['ScheduleResponseDto'];
export type ScheduleTask = components['schemas']['ScheduleTaskResponseDto'];
export type TaskAction = ScheduleTask['action'];
type ScheduleInput = components['schemas']['CreateScheduleDto'];
type TaskInput = components['schemas']['CreateTaskDto'];

export const TASK_ACTIONS: readonly TaskAction[] = ['command', 'power', 'backup'];
export const POWER_ACTIONS = ['start', 'stop', 'restart', 'kill'] as const;
/** The panel refuses an eleventh task (SCHEDULE_TASK_LIMIT_REACHED). */
export const MAX_TASKS = 10;
export const MAX_TIME_OFFSET = 3600;

const keys = {
  all: (server: string) => ['schedules', server] as const,
  list: (server: string) => ['schedules', server, 'list'] as const,
  one: (server: string, id: string) => ['schedules', server, 'one', id] as const,
};

/** How often a running schedule is fetched again, so its end (last run, queued tasks) shows without a reload. */
const POLL_MS = 2000;

/** The schedules (one page of 100; the panel sets no per-server limit, and a server with more is no use to read). */
export const schedulesQuery = (server: string) =>
  queryOptions({
    queryKey: keys.list(server),
    queryFn: async (): Promise<Schedule[]> => (await api.GET('/api/client/servers/{server}/schedules', { params: { path: { server }, query: { perPage: 100 } } })).data!.data,
    refetchInterval: (query) => (query.state.data?.some((s) => s.is_processing) ? POLL_MS : false),
  });

export const scheduleQuery = (server: string, id: string) =>
  queryOptions({
    queryKey: keys.one(server, id),
    queryFn: async (): Promise<Schedule> => (await api.GET('/api/client/servers/{server}/schedules/{schedule}', { params: { path: { server, schedule: id } } })).data!.data,
    refetchInterval: (query) => (query.state.data?.is_processing ? POLL_MS : false),
  });

const useScheduleMutation = <T, R = unknown>(server: string, fn: (input: T) => Promise<R>) => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: keys.all(server) }) });
};

export const useCreateSchedule = (server: string) =>
  useScheduleMutation(server, async (input: ScheduleInput): Promise<Schedule> => (await api.POST('/api/client/servers/{server}/schedules', { params: { path: { server } }, body: input })).data!.data);

export const useUpdateSchedule = (server: string) =>
  useScheduleMutation(
    server,
    async ({ id, ...changes }: Partial<ScheduleInput> & { id: string }): Promise<Schedule> =>
      (await api.POST('/api/client/servers/{server}/schedules/{schedule}', { params: { path: { server, schedule: id } }, body: changes })).data!.data,
  );

export const useRunSchedule = (server: string) =>
  useScheduleMutation(server, (id: string) => api.POST('/api/client/servers/{server}/schedules/{schedule}/run', { params: { path: { server, schedule: id } } }));

export const useDeleteSchedule = (server: string) =>
  useScheduleMutation(server, (id: string) => api.DELETE('/api/client/servers/{server}/schedules/{schedule}', { params: { path: { server, schedule: id } } }));

export const useCreateTask = (server: string, schedule: string) =>
  useScheduleMutation(server, (input: TaskInput) => api.POST('/api/client/servers/{server}/schedules/{schedule}/tasks', { params: { path: { server, schedule } }, body: input }));

export const useDeleteTask = (server: string, schedule: string) =>
  useScheduleMutation(server, (task: string) => api.DELETE('/api/client/servers/{server}/schedules/{schedule}/tasks/{task}', { params: { path: { server, schedule, task } } }));
