/**
 * @file Falcon grammar for tree-sitter: C (tree-sitter-c) plus the graph
 *       types, placement qualifiers and parallel statements of Falcon.
 *
 * Section numbers (§2, §4.1, ...) refer to the Falcon language reference
 * that falconc is built against.  Every child that falconc reads has a field
 * name, so the compiler never reads a Falcon node by position.
 *
 * tree-sitter-c is a development dependency (grammar/package.json); this file
 * only adds to it.
 */

const C = require('tree-sitter-c/grammar');

const PREC = C.PREC;

module.exports = grammar(C, {
  name: 'falcon',

  conflicts: ($, original) => original.concat([
    // `foo(a, b) { ... }` at top level: a call or a function without a
    // return type (§1).
    [$.expression, $._declarator],
    [$.expression, $._declarator, $.type_specifier],
    [$.expression, $._declarator, $.type_specifier, $.macro_type_specifier],
    [$.expression, $._declarator, $.type_specifier, $.macro_type_specifier,
      $._falcon_function_declarator],
    [$.type_specifier, $._falcon_parameter_declaration],
    [$._declaration_modifiers, $.type_descriptor],
    // `G1.getType() <GPU> G2;` (§2) begins like a member access.
    [$.expression, $.gettype_declaration],
    // `foreach (t In g.points) (cond) stmt` (§4.1): the parenthesised
    // condition could also begin the body.
    [$.expression, $.foreach_statement],
    // `struct node (g) t;` (§3.6) begins like `struct node (g);`, a C
    // declaration of g with a parenthesised declarator.
    [$.type_specifier, $.bound_struct_type],
  ]),

  rules: {
    _top_level_item: ($, original) => choice(
      original,
      alias($._implicit_function_definition, $.function_definition),
      alias($._implicit_function_declaration, $.declaration),
    ),

    _non_case_statement: ($, original) => choice(
      original,
      $.foreach_statement,
      $.single_statement,
      $.parallel_sections_statement,
      $.gettype_declaration,
    ),

    _top_level_statement: ($, original) => choice(
      original,
      $.foreach_statement,
      $.single_statement,
      $.parallel_sections_statement,
    ),

    // §1: `relaxgraph(Point <GPU> p, Graph <GPU> g) { ... }` has no return
    // type; it returns void (int for main).
    _implicit_function_definition: $ => prec(-1, seq(
      field('declarator', $.function_declarator),
      field('body', $.compound_statement),
    )),

    // `relaxgraph(Point <GPU> p, Graph <GPU> g);`: a prototype without a
    // return type (§1).  A macro call such as `FOO(x);` also fits; the
    // negative dynamic precedence keeps it an expression statement.
    _implicit_function_declaration: $ => choice(
      prec.dynamic(-1, seq(field('declarator', $.function_declarator), ';')),
      // With a Falcon-typed parameter it cannot be a call: prefer it.
      prec.dynamic(1, seq(
        field('declarator', alias($._falcon_function_declarator, $.function_declarator)),
        ';',
      )),
    ),

    _falcon_function_declarator: $ => seq(
      field('declarator', $.identifier),
      field('parameters', alias($._falcon_parameter_list, $.parameter_list)),
    ),

    _falcon_parameter_list: $ => seq(
      '(',
      repeat(seq($.parameter_declaration, ',')),
      alias($._falcon_parameter_declaration, $.parameter_declaration),
      repeat(seq(',', $.parameter_declaration)),
      ')',
    ),

    _falcon_parameter_declaration: $ => seq(
      field('type', $.falcon_type),
      field('declarator', choice($._declarator, $._abstract_declarator)),
    ),

    // ---- §2 placement -------------------------------------------------

    type_specifier: ($, original) => choice(
      original,
      $.falcon_type,
      $.struct_rec_specifier,
    ),

    _declarator: ($, original) => choice(
      original,
      $.placed_declarator,
      $.element_declarator,
    ),

    _declaration_declarator: ($, original) => choice(
      original,
      $.placed_declarator,
      $.element_declarator,
      $.gnu_attributed_declarator,
    ),

    init_declarator: ($, original) => choice(
      original,
      seq(
        field('declarator', $.gnu_attributed_declarator),
        '=',
        field('value', choice($.initializer_list, $.expression)),
      ),
    ),

    // GNU C: `static int counter __attribute__((aligned(64))) = 0;`, which
    // tree-sitter-c does not accept after a variable's declarator.
    gnu_attributed_declarator: $ => prec.right(seq(
      field('declarator', choice($.identifier, $.array_declarator, $.pointer_declarator)),
      repeat1($.attribute_specifier),
    )),

    _field_declarator: ($, original) => choice(
      original,
      alias($.placed_field_declarator, $.placed_declarator),
    ),

    // `<GPU>`, `<GPU, 1>`, `<CPU>` before a declarator, per declarator.
    placement: $ => seq(
      '<',
      field('kind', choice(alias('GPU', $.gpu), alias('CPU', $.cpu))),
      optional(seq(',', field('device', choice($.number_literal, $.identifier)))),
      '>',
    ),

    placed_declarator: $ => prec.right(seq(
      field('placement', $.placement),
      field('declarator', $._declarator),
    )),

    placed_field_declarator: $ => prec.right(seq(
      field('placement', $.placement),
      field('declarator', $._field_declarator),
    )),

    // `G1.getType() <GPU> G2;`: G2 has G1's property list (§2).
    gettype_declaration: $ => seq(
      field('source', $.identifier),
      '.',
      'getType',
      '(',
      ')',
      commaSep1(field('declarator', choice($.placed_declarator, $.identifier))),
      ';',
    ),

    // ---- §3 types -----------------------------------------------------

    // Graph, HGraph, Point, Edge, Set, Collection; Point and Edge may be
    // bound to a graph: `Point (g) t;` (§3.2, §3.3), and so may a struct:
    // `struct node (g) t;` (§3.6).
    falcon_type: $ => choice(
      $.graph_type,
      $.point_type,
      $.edge_type,
      $.set_type,
      $.collection_type,
      $.bound_struct_type,
    ),

    graph_type: _ => choice('Graph', 'HGraph'),
    set_type: _ => 'Set',
    collection_type: _ => 'Collection',
    point_type: $ => prec.right(seq('Point', optional($._graph_binding))),
    edge_type: $ => prec.right(seq('Edge', optional($._graph_binding))),
    _graph_binding: $ => seq('(', field('graph', $.identifier), ')'),

    // `struct node (g)`: a struct bound to graph g (§3.6).  Where C reads
    // the same words as `struct node` and a parenthesised declarator
    // (`struct node (g);`, a parameter `struct node (p)`), C wins: the
    // dynamic precedence is below that of tree-sitter-c's parenthesised
    // declarator (-10); `struct node (g) t;` can only be this rule.
    bound_struct_type: $ => prec.dynamic(-15, seq(
      field('type', $.struct_specifier),
      $._graph_binding,
    )),

    // `s[Point(g)]`, `c[struct node]` (§3.4, §3.5).
    element_declarator: $ => prec(1, seq(
      field('declarator', $._declarator),
      '[',
      field('element', choice(
        $.point_type,
        $.edge_type,
        $.bound_struct_type,
        $.struct_specifier,
        $.primitive_type,
      )),
      ']',
    )),

    // `struct_rec node nbr[3];` (§3.6)
    struct_rec_specifier: $ => seq(
      'struct_rec',
      field('name', alias($.identifier, $.type_identifier)),
    ),

    // ---- §4 statements ------------------------------------------------

    // foreach (x In obj.it) [(cond)] body; foreach (x (+ off) In p.outnbrs)
    foreach_statement: $ => prec.right(seq(
      'foreach',
      '(',
      field('variable', $.identifier),
      optional(field('offset', $.foreach_offset)),
      'In',
      field('iterable', $.expression),
      ')',
      optional(field('condition', $.parenthesized_expression)),
      field('body', $.statement),
    )),

    foreach_offset: $ => seq('(', '+', field('value', $.expression), ')'),

    // single (item) stmt [else stmt] (§4.3)
    single_statement: $ => prec.right(seq(
      'single',
      '(',
      field('target', $.expression),
      ')',
      field('body', $.statement),
      optional(field('alternative', $.else_clause)),
    )),

    // parallel sections { section { ... } ... } (§4.5)
    parallel_sections_statement: $ => seq(
      'parallel',
      'sections',
      '{',
      repeat(field('section', $.section)),
      '}',
    ),

    section: $ => seq('section', field('body', $.compound_statement)),

    // `g.addPointProperty(dist, int)`, `g.addProperty(tri, struct node)`:
    // property declarations take a type as their last argument (§3.1).
    argument_list: $ => seq(
      '(',
      commaSep(choice(
        seq(optional('__extension__'), $.expression),
        $.compound_statement,
        $.type_argument,
      )),
      ')',
    ),

    type_argument: $ => choice(
      seq('struct', field('name', alias($.identifier, $.type_identifier))),
      $.primitive_type,
      $.sized_type_specifier,
    ),

    // ---- §4.4 reductions ---------------------------------------------

    _expression_not_binary: ($, original) => choice(
      original,
      $.reduction_expression,
    ),

    reduction_expression: $ => prec.right(PREC.ASSIGNMENT, seq(
      field('left', $._assignment_left_expression),
      field('operator', choice('ReduxSum=', 'ReduxMul=')),
      field('right', $.expression),
    )),
  },
});

function commaSep(rule) {
  return optional(commaSep1(rule));
}

function commaSep1(rule) {
  return seq(rule, repeat(seq(',', rule)));
}
