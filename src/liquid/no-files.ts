import { type Liquid, Tag, type TagToken, type TopLevelToken } from 'liquidjs';

/**
 * Templates never read files (spec: templates are stored strings; a template must not reach the
 * server's disk). `include`, `render` and `layout` fail at parse time with their position.
 */
class NoFileTag extends Tag {
  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid) {
    super(token, remainTokens, liquid);
    throw new Error(`the "${token.name}" tag is not available: templates cannot load other files`);
  }

  render(): void {}
}

export const FILE_TAGS = ['include', 'render', 'layout'] as const;

export function refuseFileTags(liquid: Liquid): void {
  for (const name of FILE_TAGS) liquid.registerTag(name, NoFileTag);
}
