import { ApiProperty } from '@nestjs/swagger';

class GalleryEntryErrorDto {
  code!: string;
  message!: string;
}

class InstalledEggDto {
  id!: string;
  name!: string;
  nestId!: string;
  nestName!: string;
}

/** One egg of the gallery: what its document says, or why it could not be read. */
export class EggGalleryEntryDto {
  url!: string;
  /** From the document; null when it could not be fetched or read (see `error`). */
  name!: string | null;
  description!: string | null;
  author!: string | null;
  /** Installed eggs whose update URL is this entry's URL. */
  installed!: InstalledEggDto[];
  error!: GalleryEntryErrorDto | null;
}

class FieldChangeDto {
  field!: string;
  before!: string | null;
  after!: string | null;
}

class VariableChangeDto {
  envVariable!: string;
  @ApiProperty({ enum: ['added', 'removed', 'changed'] })
  change!: 'added' | 'removed' | 'changed';
  fields!: FieldChangeDto[];
}

/** What updating an egg from its update URL would change. */
export class EggUpdatePreviewDto {
  url!: string;
  /** Nothing would change. */
  upToDate!: boolean;
  /** Egg fields (startup, dockerImages, scripts, config…), each side as text, lists one item a line. */
  fields!: FieldChangeDto[];
  /** Variables by environment name; `removed` ones take the servers' values with them. */
  variables!: VariableChangeDto[];
}
