; Syntax highlighting for Falcon: the C captures an editor already has,
; plus the Falcon additions.  Checked by `make check` (every pattern must
; compile against the grammar).

; ---- Falcon (§1-§4) ----
[
  "foreach"
  "In"
  "single"
  "parallel"
  "sections"
  "section"
  "getType"
] @keyword

[
  (graph_type)
  (point_type)
  (edge_type)
  (set_type)
  (collection_type)
] @type.builtin

"Point" @type.builtin
"Edge" @type.builtin
"struct_rec" @keyword

(placement "<" @punctuation.bracket ">" @punctuation.bracket)
(placement kind: (_) @attribute)
(placement device: (_) @number)

(reduction_expression operator: _ @operator)

(foreach_statement variable: (identifier) @variable)
(foreach_statement iterable: (field_expression field: (field_identifier) @property))

(point_type graph: (identifier) @variable)
(edge_type graph: (identifier) @variable)
(bound_struct_type graph: (identifier) @variable)

; ---- C ----
[
  "break" "case" "const" "continue" "default" "do" "else" "enum" "extern"
  "for" "goto" "if" "inline" "return" "sizeof" "static" "struct" "switch"
  "typedef" "union" "volatile" "while"
] @keyword

(primitive_type) @type.builtin
(sized_type_specifier) @type.builtin
(type_identifier) @type

(string_literal) @string
(system_lib_string) @string
(char_literal) @string
(number_literal) @number
(true) @constant.builtin
(false) @constant.builtin
(null) @constant.builtin
(comment) @comment

(preproc_directive) @keyword
"#include" @keyword
"#define" @keyword
"#if" @keyword
"#ifdef" @keyword
"#ifndef" @keyword
"#else" @keyword
"#endif" @keyword

(call_expression function: (identifier) @function)
(call_expression function: (field_expression field: (field_identifier) @function))
(function_declarator declarator: (identifier) @function)
(field_identifier) @property
(statement_identifier) @label
(identifier) @variable
