/**
 * A server's database limit that allows none (Pterodactyl's 0). 0 is unlimited, as the interface has it;
 * a positive limit is the most databases the server may have.
 */
export const NO_DATABASES = -1;
