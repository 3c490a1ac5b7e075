import { IconServer, IconSettingsCog, IconUserCircle } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import type { ParseKeys } from 'i18next';

interface NavItem {
  /** A path of a route in web/src/routes. */
  to: string;
  label: ParseKeys;
  icon: ComponentType<{ size?: number; 'aria-hidden'?: boolean }>;
  /** Shown only to those with some part of the administration (full administrators and role holders). */
  admin?: boolean;
}

/** The main navigation of the app shell. A new top-level page adds its entry here (see web/README.md). */
export const NAV_ITEMS: NavItem[] = [
  { to: '/', label: 'nav.servers', icon: IconServer },
  { to: '/account', label: 'nav.account', icon: IconUserCircle },
  { to: '/admin', label: 'nav.admin', icon: IconSettingsCog, admin: true },
];
