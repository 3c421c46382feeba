import { seededRandom } from '@radar/shared';

/**
 * Paper-like texts on four topics, generated deterministically, for tests that need a corpus of a few
 * hundred documents without third-party data.
 */
const TOPICS: Record<string, string[]> = {
  learning:
    'neural network deep learning training gradient transformer attention representation generalization overfitting dataset benchmark classifier embedding optimizer'.split(
      ' ',
    ),
  biology:
    'protein gene expression cell genome sequencing enzyme mutation regulation tissue organism rna transcription pathway microbial'.split(
      ' ',
    ),
  climate:
    'climate warming ocean atmosphere precipitation carbon emission glacier temperature drought ecosystem aerosol monsoon sea-level'.split(
      ' ',
    ),
  economics:
    'market price inflation monetary policy labor wage trade firm investment household consumption tax unemployment'.split(
      ' ',
    ),
};
const COMMON =
  'we study the effect of a new model on the results and show that our analysis improves previous work'.split(' ');

export interface SyntheticPaper {
  topic: string;
  title: string;
  abstract: string;
}

export function syntheticPapers(count: number, seed = 7): SyntheticPaper[] {
  const random = seededRandom(seed);
  const topics = Object.keys(TOPICS);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)] as T;
  return Array.from({ length: count }, (_, i) => {
    const topic = topics[i % topics.length] as string;
    const words = TOPICS[topic] as string[];
    const abstract = Array.from({ length: 60 }, () => (random() < 0.6 ? pick(words) : pick(COMMON))).join(' ');
    return { topic, title: `On ${pick(words)} and ${pick(words)} ${i}`, abstract: `${abstract}.` };
  });
}

export const topicWords = (topic: string) => TOPICS[topic] ?? [];
