import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';

/** NestResponseDto. */
export interface Nest {
  id: string;
  name: string;
  description: string | null;
  author: string;
  createdAt: string;
  updatedAt: string;
}

/** EggListItemDto. */
interface EggListItem {
  id: string;
  name: string;
  nestName: string;
}

export interface DockerImage {
  name: string;
  image: string;
}

/** EggVariableResponseDto. */
export interface EggVariable {
  id: string;
  eggId: string;
  name: string;
  description: string;
  envVariable: string;
  defaultValue: string;
  userViewable: boolean;
  userEditable: boolean;
  rules: string;
}

/** EggResponseDto: configStartup and configLogs come parsed (or as text when they were not JSON). */
export interface Egg {
  id: string;
  nestId: string;
  nestName: string;
  name: string;
  description: string | null;
  author: string;
  dockerImage: string;
  dockerImages: DockerImage[];
  startup: string;
  features: string[] | null;
  fileDenylist: string[];
  configFiles: string;
  configStartup: unknown;
  configStop: string | null;
  configLogs: unknown;
  scriptContainer: string;
  scriptEntry: string;
  scriptInstall: string | null;
  copyScriptFrom: string | null;
  updateUrl: string | null;
  variables: EggVariable[];
  updatedAt: string;
}

interface PageOf<T> {
  data: T[];
  meta: { pagination: { total: number; totalPages: number; currentPage: number } };
}

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
    queryFn: async (): Promise<PageOf<Nest>> => {
      const { data } = await api.GET('/api/admin/nests', { params: { query: { page, perPage: PER_PAGE } } });
      return data as unknown as PageOf<Nest>;
    },
    placeholderData: keepPreviousData,
  });

export const nestQuery = (id: string) =>
  queryOptions({
    queryKey: keys.nest(id),
    queryFn: async (): Promise<Nest> => {
      const { data } = await api.GET('/api/admin/nests/{id}', { params: { path: { id } } });
      return (data as unknown as { data: Nest }).data;
    },
  });

/** How many eggs a nest holds: one row per page, for its total (the nest answer has no count). */
export const eggCountQuery = (nestId: string) =>
  queryOptions({
    queryKey: [...keys.eggsOf(nestId), 'count'],
    queryFn: async (): Promise<number> => {
      const { data } = await api.GET('/api/admin/eggs', { params: { query: { nestId, perPage: 1 } } });
      return (data as unknown as PageOf<EggListItem>).meta.pagination.total;
    },
  });

export const nestEggsQuery = (nestId: string, page: number) =>
  queryOptions({
    queryKey: keys.eggsOf(nestId, page),
    queryFn: async (): Promise<PageOf<EggListItem>> => {
      const { data } = await api.GET('/api/admin/eggs', { params: { query: { nestId, page, perPage: PER_PAGE } } });
      return data as unknown as PageOf<EggListItem>;
    },
    placeholderData: keepPreviousData,
  });

export const eggQuery = (id: string) =>
  queryOptions({
    queryKey: keys.egg(id),
    queryFn: async (): Promise<Egg> => {
      const { data } = await api.GET('/api/admin/eggs/{egg}', { params: { path: { egg: id } } });
      return (data as unknown as { data: Egg }).data;
    },
  });

interface NestInput {
  name: string;
  description: string | null;
  author?: string;
}

export const useSaveNest = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...body }: NestInput & { id?: string }): Promise<Nest> => {
      const { data } = id
        ? await api.PATCH('/api/admin/nests/{id}', { params: { path: { id } }, body } as never)
        : await api.POST('/api/admin/nests', { body } as never);
      return (data as unknown as { data: Nest }).data;
    },
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
    mutationFn: async ({ nestId, document }: { nestId: string; document: unknown }): Promise<Egg> => {
      const { data } = await api.POST('/api/admin/eggs/import', { body: { nestId, egg: document } } as never);
      return (data as unknown as { data: Egg }).data;
    },
    onSuccess: (egg) => changed(egg),
  });
};

/** The panel fetches the document from the URL (public addresses only, size-capped) and imports it. */
export const useImportEggUrl = () => {
  const changed = useEggsChanged();
  return useMutation({
    mutationFn: async ({ nestId, url }: { nestId: string; url: string }): Promise<Egg> => {
      const { data } = await api.POST('/api/admin/eggs/import-url', { body: { nestId, url } } as never);
      return (data as unknown as { data: Egg }).data;
    },
    onSuccess: (egg) => changed(egg),
  });
};

/** The fields of UpdateEggDto the pages edit. */
interface EggPatch {
  name?: string;
  description?: string | null;
  dockerImage?: string;
  dockerImages?: DockerImage[];
  startup?: string;
  features?: string[] | null;
  fileDenylist?: string[];
  configFiles?: string;
  configStartup?: string;
  configStop?: string | null;
  configLogs?: string;
  scriptContainer?: string;
  scriptEntry?: string;
  scriptInstall?: string | null;
  updateUrl?: string | null;
}

export const useUpdateEgg = (id: string) => {
  const changed = useEggsChanged();
  return useMutation({
    mutationFn: async (body: EggPatch): Promise<Egg> => {
      const { data } = await api.PATCH('/api/admin/eggs/{egg}', { params: { path: { egg: id } }, body } as never);
      return (data as unknown as { data: Egg }).data;
    },
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
  return { text: String(data), fileName };
};

type VariableInput = Omit<EggVariable, 'id' | 'eggId'>;

export const useSaveVariable = (eggId: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: Partial<VariableInput> & { id?: string }) =>
      id
        ? api.PATCH('/api/admin/eggs/{egg}/variables/{variable}', { params: { path: { egg: eggId, variable: id } }, body } as never)
        : api.POST('/api/admin/eggs/{egg}/variables', { params: { path: { egg: eggId } }, body } as never),
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
