import { createFileRoute } from '@tanstack/react-router';
import { adminSettingsQuery } from '@/features/admin-settings/api';
import { SettingsPage } from '@/features/admin-settings/components/SettingsPage';
import { adminAccessFrom } from '@/features/auth/admin-access';

// `/admin/settings`: the settings administrators change at run time (the two-factor policy).
export const Route = createFileRoute('/_app/admin/settings')({
  loader: ({ context }) => {
    if (adminAccessFrom(context.session.adminAccess).can('settings', 'read')) {
      void context.queryClient.prefetchQuery(adminSettingsQuery);
    }
  },
  component: SettingsPage,
});
