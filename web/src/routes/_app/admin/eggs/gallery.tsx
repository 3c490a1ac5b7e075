import { createFileRoute } from '@tanstack/react-router';
import { EggGalleryPage } from '@/features/admin-eggs/components/EggGalleryPage';

// `/admin/eggs/gallery`: community eggs by URL, described by the panel and imported into a nest.
export const Route = createFileRoute('/_app/admin/eggs/gallery')({
  component: EggGalleryPage,
});
