import { type SourceConfig, sourceConfigSchema } from '../sources-config';

/**
 * bioRxiv and medRxiv in the built-in catalogue: each server whole for its own field (biology,
 * medicine), and the subject categories that belong to other fields as entries of their own, so a
 * reader of ecology, chemistry or psychology gets the preprints of their field without the whole
 * server. Category names are the servers' own (bioRxiv's 25 and medRxiv's 51, as the details API
 * writes them); no key is needed.
 */

const entry = (value: Record<string, unknown>): SourceConfig => sourceConfigSchema.parse({ kind: 'biorxiv', ...value });

export const PREPRINT_CATALOGUE_ENTRIES: SourceConfig[] = [
  // Whole servers.
  entry({ name: 'medrxiv', server: 'medrxiv', fields: ['medicine'] }),
  entry({ name: 'biorxiv', server: 'biorxiv', fields: ['biology'] }),

  // bioRxiv categories that belong to other fields too.
  entry({
    name: 'biorxiv-bioinformatics',
    server: 'biorxiv',
    categories: ['bioinformatics', 'systems biology'],
    fields: ['biology', 'computer-science'],
  }),
  entry({
    name: 'biorxiv-neuroscience',
    server: 'biorxiv',
    categories: ['neuroscience', 'animal behavior and cognition'],
    fields: ['biology', 'psychology'],
  }),
  entry({
    name: 'biorxiv-ecology',
    server: 'biorxiv',
    categories: ['ecology', 'evolutionary biology', 'zoology'],
    fields: ['biology', 'environmental-ecology'],
  }),
  entry({
    name: 'biorxiv-plant',
    server: 'biorxiv',
    categories: ['plant biology'],
    fields: ['biology', 'agricultural-forestry'],
  }),
  entry({
    name: 'biorxiv-biochemistry',
    server: 'biorxiv',
    categories: ['biochemistry'],
    fields: ['biology', 'chemistry'],
  }),
  entry({
    name: 'biorxiv-biophysics',
    server: 'biorxiv',
    categories: ['biophysics'],
    fields: ['biology', 'physics-astronomy'],
  }),
  entry({
    name: 'biorxiv-bioengineering',
    server: 'biorxiv',
    categories: ['bioengineering', 'synthetic biology'],
    fields: ['biology', 'engineering-technology'],
  }),
  entry({
    name: 'biorxiv-biomedical',
    server: 'biorxiv',
    categories: ['cancer biology', 'immunology', 'pathology', 'pharmacology and toxicology'],
    fields: ['biology', 'medicine'],
  }),
  entry({
    name: 'biorxiv-paleontology',
    server: 'biorxiv',
    categories: ['paleontology'],
    fields: ['biology', 'earth-sciences'],
  }),
  entry({
    name: 'biorxiv-scicomm',
    server: 'biorxiv',
    categories: ['scientific communication and education'],
    fields: ['education', 'multidisciplinary'],
  }),

  // medRxiv categories that belong to other fields too.
  entry({
    name: 'medrxiv-psychiatry',
    server: 'medrxiv',
    categories: ['psychiatry and clinical psychology', 'addiction medicine'],
    fields: ['medicine', 'psychology'],
  }),
  entry({
    name: 'medrxiv-health-economics',
    server: 'medrxiv',
    categories: ['health economics', 'health policy', 'health systems and quality improvement'],
    fields: ['medicine', 'economics', 'management'],
  }),
  entry({
    name: 'medrxiv-health-informatics',
    server: 'medrxiv',
    categories: ['health informatics'],
    fields: ['medicine', 'computer-science'],
  }),
  entry({
    name: 'medrxiv-environmental-health',
    server: 'medrxiv',
    categories: ['occupational and environmental health'],
    fields: ['medicine', 'environmental-ecology'],
  }),
  entry({
    name: 'medrxiv-public-health',
    server: 'medrxiv',
    categories: ['public and global health'],
    fields: ['medicine', 'sociology'],
  }),
  entry({
    name: 'medrxiv-medical-education',
    server: 'medrxiv',
    categories: ['medical education'],
    fields: ['medicine', 'education'],
  }),
  entry({
    name: 'medrxiv-medical-ethics',
    server: 'medrxiv',
    categories: ['medical ethics'],
    fields: ['medicine', 'philosophy'],
  }),
];
