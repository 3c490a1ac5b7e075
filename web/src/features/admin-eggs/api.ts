import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';

export type Nest = components['schemas']['NestResponseDto'];
export type DockerImage = components['schemas']['EggDockerImageDto'];
export type EggVariable = components['schemas']['EggVariableResponseDto'];
/** EggResponseDto: configStartup and configLogs come parsed (or as text when they were not JSON). */
export type Egg = components['schemas']['EggResponseDto'];
type NestInput = components['schemas']['CreateNestDto'];
/** The fields of UpdateEggDto the pages edit. */
type EggPatch = components['schemas']['UpdateEggDto'];
type VariableInput = components['schemas']['CreateEggVariableDto'];

/** One page of a list: a hundred rows, the most the API gives at once. */
const PER_PAGE = 100;

const keys = {
  nests: ['admin-eggs', 'nests'] as const,
  nest: (id: string) => ['admin-eggs', 'nest', id] as const,
  eggs: ['admin-eggs', 'eggs'] as const,
  eggsOf: (nestId: string, page?: number) => ['admin-eggs', 'eggs', nestId, ...(page === undefined ? [] : [page])] as const,
  egg: (id: string) => ['admin-eggs', 'egg', id] as const,
};

export const nestsQuery = (page: number) =>
  queryOptions({
    queryKey: [...keys.nests, page],
    queryFn: async () => (await api.GET('/api/admin/nests', { params: { query: { page, perPage: PER_PAGE } } })).data!,
    placeholderData: keepPreviousData,
  });

export const nestQuery = (id: string) =>
  queryOptions({
    queryKey: keys.nest(id),
    queryFn: async (): Promise<Nest> => (await api.GET('/api/admin/nests/{id}', { params: { path: { id } } })).data!.data,
  });

/** How many eggs a nest holds: one row per page, for its total (the nest answer has no count). */
export const eggCountQuery = (nestId: string) =>
  queryOptions({
    queryKey: [...keys.eggsOf(nestId), 'count'],
    queryFn: async (): Promise<number> => (await api.GET('/api/admin/eggs', { params: { query: { nestId, perPage: 1 } } })).data!.meta.pagination.total,
  });

export const nestEggsQuery = (nestId: string, page: number) =>
  queryOptions({
    queryKey: keys.eggsOf(nestId, page),
    queryFn: async () => (await api.GET('/api/admin/eggs', { params: { query: { nestId, page, perPage: PER_PAGE } } })).data!,
    placeholderData: keepPreviousData,
  });

export const eggQuery = (id: string) =>
  queryOptions({
    queryKey: keys.egg(id),
    queryFn: async (): Promise<Egg> => (await api.GET('/api/admin/eggs/{egg}', { params: { path: { egg: id } } })).data!.data,
  });

export const useSaveNest = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...body }: NestInput & { id?: string }): Promise<Nest> =>
      id ? (await api.PATCH('/api/admin/nests/{id}', { params: { path: { id } }, body })).data!.data : (await api.POST('/api/admin/nests', { body })).data!.data,
    onSuccess: (nest) => {
      qc.setQueryData(keys.nest(nest.id), nest);
      return qc.invalidateQueries({ queryKey: keys.nests });
    },
  });
};

export const useDeleteNest = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.DELETE('/api/admin/nests/{id}', { params: { path: { id } } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.nests }),
  });
};

/** After an egg is made, changed or removed: the nest lists and counts, and the egg itself. */
const useEggsChanged = () => {
  const qc = useQueryClient();
  return (egg?: Egg) => {
    if (egg) {
      qc.setQueryData(keys.egg(egg.id), egg);
    }
    return qc.invalidateQueries({ queryKey: keys.eggs });
  };
};

/** Imports a parsed PTDL document into a nest. */
export const useImportEgg = () => {
  const changed = useEggsChanged();
  return useMutation({
    mutationFn: async ({ nestId, document }: { nestId: string; document: unknown }): Promise<Egg> =>
      (await api.POST('/api/admin/eggs/import', { body: { nestId, egg: document } })).data!.data,
    onSuccess: (egg) => changed(egg),
  });
};

/** The panel fetches the document from the URL (public addresses only, size-capped) and imports it. */
export const useImportEggUrl = () => {
  const changed = useEggsChanged();
  return useMutation({
    mutationFn: async ({ nestId, url }: { nestId: string; url: string }): Promise<Egg> => (await api.POST('/api/admin/eggs/import-url', { body: { nestId, url } })).data!.data,
    onSuccess: (egg) => changed(egg),
  });
};

export const useUpdateEgg = (id: string) => {
  const changed = useEggsChanged();
  return useMutation({
    mutationFn: async (body: EggPatch): Promise<Egg> => (await api.PATCH('/api/admin/eggs/{egg}', { params: { path: { egg: id } }, body })).data!.data,
    onSuccess: (egg) => changed(egg),
  });
};

export const useDeleteEgg = () => {
  const changed = useEggsChanged();
  return useMutation({
    mutationFn: (id: string) => api.DELETE('/api/admin/eggs/{egg}', { params: { path: { egg: id } } }),
    onSuccess: () => changed(),
  });
};

/** The egg as Pterodactyl's PTDL_v2 file: its text and the file name the panel suggests. */
export const exportEgg = async (id: string): Promise<{ text: string; fileName: string }> => {
  const { data, response } = await api.GET('/api/admin/eggs/{egg}/export', { params: { path: { egg: id } }, parseAs: 'text' });
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `egg-${id}.json`;
  return { text: data!, fileName };
};

export const useSaveVariable = (eggId: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...body }: VariableInput & { id?: string }): Promise<void> => {
      if (id) {
        await api.PATCH('/api/admin/eggs/{egg}/variables/{variable}', { params: { path: { egg: eggId, variable: id } }, body });
      } else {
        await api.POST('/api/admin/eggs/{egg}/variables', { params: { path: { egg: eggId } }, body });
      }
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.egg(eggId) }),
  });
};

export const useDeleteVariable = (eggId: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.DELETE('/api/admin/eggs/{egg}/variables/{variable}', { params: { path: { egg: eggId, variable: id } } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.egg(eggId) }),
  });
};

export type GalleryEntry = components['schemas']['EggGalleryEntryDto'];
export type EggUpdatePreview = components['schemas']['EggUpdatePreviewDto'];

/** The eggs of the panel's gallery (EGG_GALLERY_URLS), as the panel read them from their documents. */
export const galleryQuery = () =>
  queryOptions({
    queryKey: [...keys.eggs, 'gallery'],
    queryFn: async (): Promise<GalleryEntry[]> => (await api.GET('/api/admin/eggs/gallery')).data!.data,
  });

/** What updating the egg from its update URL would change; fetched afresh each time it is asked for. */
export const updatePreviewQuery = (eggId: string) =>
  queryOptions({
    queryKey: [...keys.egg(eggId), 'update-preview'],
    queryFn: async (): Promise<EggUpdatePreview> => (await api.GET('/api/admin/eggs/{egg}/update-preview', { params: { path: { egg: eggId } } })).data!.data,
    staleTime: 0,
    gcTime: 0,
  });

/** Applies the document at the egg's update URL (the panel fetches it again). */
export const useUpdateEggFromUrl = () => {
  const changed = useEggsChanged();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (eggId: string): Promise<string> => (await api.POST('/api/admin/eggs/{egg}/update', { params: { path: { egg: eggId } } })).data!.data.id,
    // The egg page reloads the egg (its tabs show the new startup, script and variables).
    onSuccess: (eggId) => Promise.all([changed(), qc.invalidateQueries({ queryKey: keys.egg(eggId) })]),
  });
};
