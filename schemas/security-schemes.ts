import { Schema } from "effect"
import { optional, StringRecord } from "./internal/common.ts"

/** Fields every security scheme carries. */
export const SecuritySchemeBase: Schema.Struct<{
  readonly description: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  description: optional(Schema.String)
}).annotate({ identifier: "SecuritySchemeBase" })
/** @see SecuritySchemeBase */
export type SecuritySchemeBase = Schema.Schema.Type<typeof SecuritySchemeBase>

/** An API key sent in a header, query parameter or cookie. */
export const APIKeySecurityScheme: Schema.Struct<{
  readonly description: Schema.optionalKey<Schema.String>
  readonly type: Schema.Literal<"apiKey">
  readonly in: Schema.Literals<readonly ["cookie", "header", "query"]>
  readonly name: Schema.String
}> = Schema.Struct({
  type: Schema.Literal("apiKey"),
  in: Schema.Literals(["cookie", "header", "query"]),
  name: Schema.String,
  ...SecuritySchemeBase.fields
}).annotate({ identifier: "APIKeySecurityScheme" })
/** @see APIKeySecurityScheme */
export type APIKeySecurityScheme = Schema.Schema.Type<typeof APIKeySecurityScheme>

/** HTTP authentication (RFC 7235), e.g. `Bearer`. */
export const HTTPAuthSecurityScheme: Schema.Struct<{
  readonly description: Schema.optionalKey<Schema.String>
  readonly type: Schema.Literal<"http">
  readonly scheme: Schema.String
  readonly bearerFormat: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  type: Schema.Literal("http"),
  scheme: Schema.String,
  bearerFormat: optional(Schema.String),
  ...SecuritySchemeBase.fields
}).annotate({ identifier: "HTTPAuthSecurityScheme" })
/** @see HTTPAuthSecurityScheme */
export type HTTPAuthSecurityScheme = Schema.Schema.Type<typeof HTTPAuthSecurityScheme>

const Scopes = StringRecord(Schema.String)

/** OAuth 2.0 authorization code flow. */
export const AuthorizationCodeOAuthFlow: Schema.Struct<{
  readonly authorizationUrl: Schema.String
  readonly tokenUrl: Schema.String
  readonly refreshUrl: Schema.optionalKey<Schema.String>
  readonly scopes: Schema.$Record<Schema.String, Schema.String>
}> = Schema.Struct({
  authorizationUrl: Schema.String,
  tokenUrl: Schema.String,
  refreshUrl: optional(Schema.String),
  scopes: Scopes
}).annotate({ identifier: "AuthorizationCodeOAuthFlow" })
/** @see AuthorizationCodeOAuthFlow */
export type AuthorizationCodeOAuthFlow = Schema.Schema.Type<typeof AuthorizationCodeOAuthFlow>

/** OAuth 2.0 client credentials flow. */
export const ClientCredentialsOAuthFlow: Schema.Struct<{
  readonly tokenUrl: Schema.String
  readonly refreshUrl: Schema.optionalKey<Schema.String>
  readonly scopes: Schema.$Record<Schema.String, Schema.String>
}> = Schema.Struct({
  tokenUrl: Schema.String,
  refreshUrl: optional(Schema.String),
  scopes: Scopes
}).annotate({ identifier: "ClientCredentialsOAuthFlow" })
/** @see ClientCredentialsOAuthFlow */
export type ClientCredentialsOAuthFlow = Schema.Schema.Type<typeof ClientCredentialsOAuthFlow>

/** OAuth 2.0 implicit flow. */
export const ImplicitOAuthFlow: Schema.Struct<{
  readonly authorizationUrl: Schema.String
  readonly refreshUrl: Schema.optionalKey<Schema.String>
  readonly scopes: Schema.$Record<Schema.String, Schema.String>
}> = Schema.Struct({
  authorizationUrl: Schema.String,
  refreshUrl: optional(Schema.String),
  scopes: Scopes
}).annotate({ identifier: "ImplicitOAuthFlow" })
/** @see ImplicitOAuthFlow */
export type ImplicitOAuthFlow = Schema.Schema.Type<typeof ImplicitOAuthFlow>

/** OAuth 2.0 resource owner password flow. */
export const PasswordOAuthFlow: Schema.Struct<{
  readonly tokenUrl: Schema.String
  readonly refreshUrl: Schema.optionalKey<Schema.String>
  readonly scopes: Schema.$Record<Schema.String, Schema.String>
}> = Schema.Struct({
  tokenUrl: Schema.String,
  refreshUrl: optional(Schema.String),
  scopes: Scopes
}).annotate({ identifier: "PasswordOAuthFlow" })
/** @see PasswordOAuthFlow */
export type PasswordOAuthFlow = Schema.Schema.Type<typeof PasswordOAuthFlow>

/** The OAuth 2.0 flows a scheme supports. */
export const OAuthFlows: Schema.Struct<{
  readonly authorizationCode: Schema.optionalKey<typeof AuthorizationCodeOAuthFlow>
  readonly clientCredentials: Schema.optionalKey<typeof ClientCredentialsOAuthFlow>
  readonly implicit: Schema.optionalKey<typeof ImplicitOAuthFlow>
  readonly password: Schema.optionalKey<typeof ClientCredentialsOAuthFlow>
}> = Schema.Struct({
  authorizationCode: optional(AuthorizationCodeOAuthFlow),
  clientCredentials: optional(ClientCredentialsOAuthFlow),
  implicit: optional(ImplicitOAuthFlow),
  password: optional(PasswordOAuthFlow)
}).annotate({ identifier: "OAuthFlows" })
/** @see OAuthFlows */
export type OAuthFlows = Schema.Schema.Type<typeof OAuthFlows>

/** OAuth 2.0. */
export const OAuth2SecurityScheme: Schema.Struct<{
  readonly description: Schema.optionalKey<Schema.String>
  readonly type: Schema.Literal<"oauth2">
  readonly flows: typeof OAuthFlows
  readonly oauth2MetadataUrl: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  type: Schema.Literal("oauth2"),
  flows: OAuthFlows,
  oauth2MetadataUrl: optional(Schema.String),
  ...SecuritySchemeBase.fields
}).annotate({ identifier: "OAuth2SecurityScheme" })
/** @see OAuth2SecurityScheme */
export type OAuth2SecurityScheme = Schema.Schema.Type<typeof OAuth2SecurityScheme>

/** OpenID Connect. */
export const OpenIdConnectSecurityScheme: Schema.Struct<{
  readonly description: Schema.optionalKey<Schema.String>
  readonly type: Schema.Literal<"openIdConnect">
  readonly openIdConnectUrl: Schema.String
}> = Schema.Struct({
  type: Schema.Literal("openIdConnect"),
  openIdConnectUrl: Schema.String,
  ...SecuritySchemeBase.fields
}).annotate({ identifier: "OpenIdConnectSecurityScheme" })
/** @see OpenIdConnectSecurityScheme */
export type OpenIdConnectSecurityScheme = Schema.Schema.Type<typeof OpenIdConnectSecurityScheme>

/** Mutual TLS. */
export const MutualTLSSecurityScheme: Schema.Struct<{
  readonly description: Schema.optionalKey<Schema.String>
  readonly type: Schema.Literal<"mutualTLS">
}> = Schema.Struct({
  type: Schema.Literal("mutualTLS"),
  ...SecuritySchemeBase.fields
}).annotate({ identifier: "MutualTLSSecurityScheme" })
/** @see MutualTLSSecurityScheme */
export type MutualTLSSecurityScheme = Schema.Schema.Type<typeof MutualTLSSecurityScheme>

/** Any security scheme an agent card declares, discriminated by `type`. */
export const SecurityScheme: Schema.Union<
  readonly [
    typeof APIKeySecurityScheme,
    typeof HTTPAuthSecurityScheme,
    typeof OAuth2SecurityScheme,
    typeof OpenIdConnectSecurityScheme,
    typeof MutualTLSSecurityScheme
  ]
> = Schema.Union([APIKeySecurityScheme,
  HTTPAuthSecurityScheme,
  OAuth2SecurityScheme,
  OpenIdConnectSecurityScheme,
  MutualTLSSecurityScheme]).annotate({ identifier: "SecurityScheme" })
/** @see SecurityScheme */
export type SecurityScheme = Schema.Schema.Type<typeof SecurityScheme>
