import { type SourceConfig, sourceConfigSchema } from '../pipeline/sources-config';

/**
 * bioRxiv and medRxiv in the built-in catalogue: each server whole for its own field (biology,
 * medicine), and the subject categories that belong to other fields as entries of their own, so a
 * reader of ecology, chemistry or psychology gets the preprints of their field without the whole
 * server. Category names are the servers' own (bioRxiv's 25 and medRxiv's 51, as the details API
 * writes them); no key is needed.
 */

const entry = (value: Record<string, unknown>): SourceConfig => sourceConfigSchema.parse({ kind: 'biorxiv', ...value });

/** A server's categories as entries of their own: the name's suffix, the categories, the fields they belong to. */
type CategoryRow = [suffix: string, categories: string[], fields: string[]];

const BIORXIV_CATEGORIES: CategoryRow[] = [
  ['bioinformatics', ['bioinformatics', 'systems biology'], ['biology', 'computer-science']],
  ['neuroscience', ['neuroscience', 'animal behavior and cognition'], ['biology', 'psychology']],
  ['ecology', ['ecology', 'evolutionary biology', 'zoology'], ['biology', 'environmental-ecology']],
  ['plant', ['plant biology'], ['biology', 'agricultural-forestry']],
  ['biochemistry', ['biochemistry'], ['biology', 'chemistry']],
  ['biophysics', ['biophysics'], ['biology', 'physics-astronomy']],
  ['bioengineering', ['bioengineering', 'synthetic biology'], ['biology', 'engineering-technology']],
  ['biomedical', ['cancer biology', 'immunology', 'pathology', 'pharmacology and toxicology'], ['biology', 'medicine']],
  ['paleontology', ['paleontology'], ['biology', 'earth-sciences']],
  ['scicomm', ['scientific communication and education'], ['education', 'multidisciplinary']],
];

const MEDRXIV_CATEGORIES: CategoryRow[] = [
  ['psychiatry', ['psychiatry and clinical psychology', 'addiction medicine'], ['medicine', 'psychology']],
  [
    'health-economics',
    ['health economics', 'health policy', 'health systems and quality improvement'],
    ['medicine', 'economics', 'management'],
  ],
  ['health-informatics', ['health informatics'], ['medicine', 'computer-science']],
  ['environmental-health', ['occupational and environmental health'], ['medicine', 'environmental-ecology']],
  ['public-health', ['public and global health'], ['medicine', 'sociology']],
  ['medical-education', ['medical education'], ['medicine', 'education']],
  ['medical-ethics', ['medical ethics'], ['medicine', 'philosophy']],
];

const categoryEntries = (server: 'biorxiv' | 'medrxiv', rows: CategoryRow[]) =>
  rows.map(([suffix, categories, fields]) => entry({ name: `${server}-${suffix}`, server, categories, fields }));

export const PREPRINT_CATALOGUE_ENTRIES: SourceConfig[] = [
  // Whole servers.
  entry({ name: 'medrxiv', server: 'medrxiv', fields: ['medicine'] }),
  entry({ name: 'biorxiv', server: 'biorxiv', fields: ['biology'] }),

  // bioRxiv and medRxiv categories that belong to other fields too.
  ...categoryEntries('biorxiv', BIORXIV_CATEGORIES),
  ...categoryEntries('medrxiv', MEDRXIV_CATEGORIES),
];
